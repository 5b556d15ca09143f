/// One element of a parsed XML file, copied out of libxml2 so that no C pointer outlives
/// the parse.
///
/// Model files carry their data in attributes; ``text`` is used only by the plist in
/// `.xccurrentversion`.
struct SourceElement: Sendable {
    /// The element's name, such as `attribute`.
    var name: String
    /// The element's attributes, in document order.
    var attributes: [(name: String, value: String)]
    /// The element's child elements, in document order.
    var children: [SourceElement]
    /// The text directly inside the element (not inside its children), concatenated.
    var text: String
    /// The line the element starts on, counted from 1.
    var line: Int

    /// The value of the attribute named `name`, if present.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// A short description for messages: the element with its `name` attribute if it has one,
    /// such as `<attribute name="title">`.
    var tag: String {
        if let name = attribute("name") { return "<\(self.name) name=\"\(name)\">" }
        return "<\(self.name)>"
    }
}

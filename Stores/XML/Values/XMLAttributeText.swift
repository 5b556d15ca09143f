/// An attribute value as an `<attribute>` element carries it: Core Data's type name, the text,
/// and whether the text is base64 (only for strings XML cannot hold as they are).
struct XMLAttributeText: Equatable {
    /// The value of the element's `type` attribute, such as `int16` or `string`.
    var typeName: String
    /// The element's text.
    var text: String
    /// Whether `text` is the base64 form of the value's UTF-8 bytes (`encoding="base64"`).
    var isBase64 = false
}

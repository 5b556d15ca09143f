import Strata

/// Turns the element tree of one model file (`<model>` and everything below it) into a
/// `ManagedObjectModel`, following `docs/COREDATA-FORMATS.md` §A.
///
/// The reader checks syntax only: required XML attributes, known type and delete-rule names,
/// numbers that parse. References between entities (superentity, destination, inverse,
/// constraint and index properties, configuration members) are checked later by
/// `ManagedObjectModel/validationIssues()` and `ManagedObjectModel/freeze()`, like those of
/// a model built in code. What Strata does not use is noted in ``ignored``.
struct ModelFileReader {
    /// The file being read, for messages.
    let path: String
    /// What was skipped, to be logged once the file is read.
    var ignored = IgnoredItems()
    /// The model's `<composite>` elements by name, which `Composite` attributes refer to.
    var composites: [String: SourceElement] = [:]
    /// The composites being read, outermost first, to refuse one that contains itself.
    var compositesBeingRead: [String] = []

    /// Creates a reader for the file at `path`.
    init(path: String) {
        self.path = path
    }

    /// An error for `element`, naming the file, line and element, then `reason`.
    func malformed(_ element: SourceElement, in context: String? = nil, _ reason: String) -> ModelError {
        ModelError(
            code: .malformedFile, message: "\(location(element, in: context)) \(reason)", filePath: path,
            line: element.line)
    }

    /// `'path', line n: <tag> in context` for the start of a message.
    func location(_ element: SourceElement, in context: String?) -> String {
        "'\(path)', line \(element.line): \(element.tag)\(context.map { " in \($0)" } ?? "")"
    }

    /// The value of the XML attribute `name` of `element`.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when it is missing.
    func required(_ name: String, of element: SourceElement, in context: String? = nil) throws(ModelError) -> String {
        guard let value = element.attribute(name) else {
            throw malformed(element, in: context, "lacks the required attribute '\(name)'.")
        }
        return value
    }

    /// The Boolean XML attribute `name` of `element`: `YES` or `NO`, absent meaning `NO`.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for any other value.
    func flag(_ name: String, of element: SourceElement, in context: String? = nil) throws(ModelError) -> Bool {
        switch element.attribute(name) {
        case nil, "NO": return false
        case "YES": return true
        case let value?: throw malformed(element, in: context, "has \(name)=\"\(value)\"; expected YES or NO.")
        }
    }

    /// The integer XML attribute `name` of `element`, or `nil` when absent.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when it is not an integer.
    func integer(_ name: String, of element: SourceElement, in context: String? = nil) throws(ModelError) -> Int? {
        guard let text = element.attribute(name) else { return nil }
        guard let value = Int(text) else {
            throw malformed(element, in: context, "has \(name)=\"\(text)\", which is not an integer.")
        }
        return value
    }

    /// Notes every XML attribute of `element` not in `used` as ignored.
    mutating func ignoreAttributes(of element: SourceElement, except used: Set<String>) {
        for attribute in element.attributes where !used.contains(attribute.name) {
            ignored.note("\(element.name)@\(attribute.name)", line: element.line)
        }
    }

    /// Notes `element` (and so everything inside it) as ignored.
    mutating func ignore(_ element: SourceElement, inside parent: String) {
        ignored.note("<\(element.name)> inside <\(parent)>", line: element.line)
    }

    /// The user info of a property `element` from its `<userInfo>` child (empty without one);
    /// other children, except those named in `handled`, are noted as ignored.
    mutating func propertyUserInfo(
        of element: SourceElement, handled: Set<String> = [], in context: String
    ) throws(ModelError) -> [String: String] {
        var result: [String: String] = [:]
        for child in element.children where !handled.contains(child.name) {
            if child.name == "userInfo" {
                result = try userInfo(child, in: context)
            } else {
                ignore(child, inside: element.name)
            }
        }
        return result
    }

    /// The key-value pairs of a `<userInfo>` element (`<entry key="…" value="…"/>` children).
    mutating func userInfo(_ element: SourceElement, in context: String) throws(ModelError) -> [String: String] {
        ignoreAttributes(of: element, except: [])
        var result: [String: String] = [:]
        for entry in element.children {
            guard entry.name == "entry" else {
                ignore(entry, inside: element.name)
                continue
            }
            ignoreAttributes(of: entry, except: ["key", "value"])
            result[try required("key", of: entry, in: context)] = entry.attribute("value") ?? ""
        }
        return result
    }
}

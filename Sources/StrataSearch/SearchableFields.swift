/// What the search index holds of one object: the title results show, the text searched, and
/// keywords that find the object without being shown.
///
/// A ``SearchIndexExporter`` makes them from the model — the title from the entity's
/// `searchDisplayNameExpression`, the text from the attributes marked `isIndexedForSearch`,
/// one value per line — and hands them to its fields hook, which may change them:
///
/// ```swift
/// let exporter = try SearchIndexExporter(forStoreWith: description, coordinator: coordinator) { photo, fields in
///     var fields = fields
///     fields.keywords += try photo.objects(forKey: "tags").map { try $0.value(forKey: "name").stringValue ?? "" }
///     return fields
/// }
/// ```
public struct SearchableFields: Sendable, Hashable {
    /// What search results show for the object.
    public var title: String
    /// The object's searchable text.
    public var text: String
    /// Words that find the object without being shown.
    public var keywords: [String]

    /// Creates the fields of one object.
    public init(title: String = "", text: String = "", keywords: [String] = []) {
        self.title = title
        self.text = text
        self.keywords = keywords
    }
}

/// A named, stored fetch request of a model, whose predicate may hold `$VARIABLE`s.
///
/// ```swift
/// let template = FetchRequestTemplate(name: "postsByAuthor", entityName: "Post",
///                                     predicateFormat: "author.name == $NAME")
/// let predicate = try template.predicate(substituting: ["NAME": .string("Ada")])
/// ```
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name, unique in its model.
    public var name: String
    /// The entity the request fetches.
    public var entityName: String
    /// The request's predicate in Core Data's format syntax; `nil` fetches every object.
    public var predicateFormat: String?

    /// Creates a template.
    public init(name: String, entityName: String, predicateFormat: String? = nil) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
    }
}

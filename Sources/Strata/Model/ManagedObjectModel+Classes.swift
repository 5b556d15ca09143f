extension ManagedObjectModel {
    /// Creates a model from classes: each class is an entity named ``ManagedObject/entityName``,
    /// its superclass (unless ``ManagedObject``) its superentity, and its ``Managed``, ``ToOne``,
    /// ``ToMany`` and ``OrderedToMany`` properties its attributes and relationships.
    ///
    /// ```swift
    /// final class Author: ManagedObject {
    ///     @Managed(.unique) var name: String
    ///     @ToMany(deleteRule: .cascade) var books: Set<Book>
    /// }
    /// final class Book: ManagedObject {
    ///     @Managed var title: String
    ///     @Managed var pages: Int32 = 0
    ///     @ToOne(inverse: \Author.books) var author: Author?
    /// }
    /// let model = try ManagedObjectModel(types: [Author.self, Book.self])
    /// ```
    ///
    /// An attribute's type is its Swift type's (``AttributeValueConvertible/attributeType``), it
    /// is optional when the Swift type is, and an initial value is its default value;
    /// ``AttributeOptions`` add uniqueness, indexes, transience, external storage, a value
    /// transformer, an earlier name and a hash modifier. A relationship's destination is its
    /// declared class; its inverse is the one it names, else the relationship naming it, else the
    /// only relationship of the destination pointing back when it is the only one of its class
    /// pointing there. ``ManagedObject/entityOptions`` declares abstractness, constraints over
    /// several properties, fetch indexes, an earlier name and a hash modifier. The version hashes
    /// are those of the same model written with the builder or in Xcode.
    ///
    /// Superclasses and relationships' destination classes join the model without being listed.
    /// The model knows its classes (``classes``): a coordinator on it makes each entity's objects
    /// of its class.
    ///
    /// - Parameters:
    ///   - types: the classes; the order does not matter.
    ///   - configurations: named sets of classes; a store added for a configuration holds only
    ///     their entities.
    ///   - versionIdentifiers: free-form version labels, written to store metadata.
    /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidModel`` listing every problem:
    ///   a Swift type that stands for no attribute type, a key path that names no managed property,
    ///   and every problem ``freeze()`` would find.
    public convenience init(
        types: [ManagedObject.Type], configurations: [String: [ManagedObject.Type]] = [:],
        versionIdentifiers: [String] = []
    ) throws(ModelError) {
        let derived = try ClassModelDerivation(types: types + configurations.values.flatMap { $0 })
        self.init(
            entities: derived.entities, configurations: configurations.mapValues { $0.map(\.entityName) },
            versionIdentifiers: versionIdentifiers)
        setClasses(derived.classes)
        let issues = contents().parts.validationIssues()
        guard issues.isEmpty else {
            throw ModelError(
                code: .invalidModel,
                message: "The model the classes describe is not valid (\(issues.count) problem(s)).",
                issues: issues)
        }
    }

    /// Checks `types` (and their superclasses) against the model's entities and binds each to
    /// its entity, so that a coordinator on the model makes the entity's objects of the class.
    ///
    /// Use it on a model loaded from a file or built in code, before the model is used: a class
    /// that disagrees with the model fails here, naming the class and property, rather than when
    /// the property is first read. Optionality is not compared: a non-optional Swift property
    /// over an optional attribute is common (Xcode generates one for a scalar), and stops the
    /// program only if it reads a missing value.
    ///
    /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidModel`` and an issue of kind
    ///   ``ModelIssue/Kind/classMismatch`` for each disagreement: two classes for one entity, an
    ///   entity the model lacks, a
    ///   superclass unlike the superentity, a typed property the entity lacks or has as another
    ///   kind of property, an attribute type the Swift type cannot hold, a relationship of another
    ///   cardinality or order, or a destination class unlike the model's destination.
    ///   A model in use (frozen) throws too: bind before a coordinator or container takes it.
    public func bind(_ types: [ManagedObject.Type]) throws(ModelError) {
        guard !isFrozen else {
            throw ModelError(
                code: .invalidModel,
                message: "Cannot bind classes to a model in use (frozen); bind them before a coordinator takes it.")
        }
        var classes: [String: ManagedObject.Type] = [:]
        var issues: [ModelIssue] = []
        let check = ClassModelCheck(entities: contents().parts.entities)
        for type in types {
            for declaration in try ClassDeclaration.lineage(of: type) {
                let name = declaration.type.entityName
                switch classes.updateValue(declaration.type, forKey: name) {
                case nil: issues += check.mismatches(of: declaration)
                case let other? where other != declaration.type:
                    issues.append(
                        ModelIssue(
                            .classMismatch, entity: name,
                            "Classes \(other) and \(declaration.type) both stand for entity '\(name)'; one class per "
                                + "entity."))
                default: break
                }
            }
        }
        guard issues.isEmpty else {
            throw ModelError(
                code: .invalidModel, message: "The classes disagree with the model (\(issues.count) problem(s)).",
                issues: issues)
        }
        setClasses(classes)
    }

    /// How the typed properties `type` declares itself disagree with those of the entity `entity`;
    /// its superclasses are not looked at.
    func propertyMismatches(of type: ManagedObject.Type, entity: String) -> [ModelIssue] {
        do {
            guard let own = try ClassDeclaration.lineage(of: type).first else { return [] }
            return ClassModelCheck(entities: contents().parts.entities).mismatches(
                of: own, entity: entity, inheritance: false)
        } catch {
            return error.issues
        }
    }
}

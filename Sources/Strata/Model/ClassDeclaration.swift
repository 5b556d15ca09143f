/// The typed properties and entity options one ``ManagedObject`` subclass declares itself, read
/// from a stand-in object (``DeclarationRecorder``).
struct ClassDeclaration {
    /// A typed property and what its wrapper declared.
    struct Property {
        var name: String
        var declaration: PropertyDeclaration
    }

    /// The class.
    let type: ManagedObject.Type
    /// Its superclass, unless that is ``ManagedObject``.
    let superclass: ManagedObject.Type?
    /// Its own typed properties, in declaration order.
    let properties: [Property]
    /// Its own entity options: none when it answers its superclass's.
    let options: EntityOptions

    /// The declarations of `type` and of each superclass up to ``ManagedObject``, `type` first.
    ///
    /// - Throws: ``ModelError`` with ``ModelIssue/Kind/invalidClassDeclaration`` when the
    ///   wrappers' reports do not pair with the properties (an initializer replaced a wrapper).
    static func lineage(of type: ManagedObject.Type) throws(ModelError) -> [ClassDeclaration] {
        let (object, reports) = DeclarationRecorder.standIn(of: type)
        // A second stand-in shows initial values that differ each time they are evaluated.
        let (_, again) = DeclarationRecorder.standIn(of: type)
        var levels: [(type: ManagedObject.Type, wrappers: [(name: String, wrapper: Any.Type)])] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, let level = current.subjectType as? ManagedObject.Type, level != ManagedObject.self
        {
            let wrappers = current.children.compactMap { child -> (name: String, wrapper: Any.Type)? in
                guard child.value is any ManagedPropertyStorage, let label = child.label, label.hasPrefix("_") else {
                    return nil
                }
                return (String(label.dropFirst()), Swift.type(of: child.value))
            }
            levels.append((level, wrappers))
            mirror = current.superclassMirror
        }
        let wrappers = levels.flatMap(\.wrappers)
        guard wrappers.count == reports.count, zip(wrappers, reports).allSatisfy({ $0.wrapper == $1.wrapper }) else {
            throw ModelError(
                code: .invalidModel,
                message: "Cannot read the typed properties of class \(type).",
                issues: [
                    ModelIssue(
                        .invalidClassDeclaration, entity: type.entityName,
                        "Class \(type) has \(wrappers.count) typed properties but \(reports.count) declared themselves "
                            + "as it was made: each @Managed, @ToOne, @ToMany and @OrderedToMany property must be "
                            + "set up by its declaration, not replaced by an initializer.")
                ])
        }
        if let varying = zip(wrappers, zip(reports, again)).first(where: { !$1.0.hasSameDefault(as: $1.1) }) {
            throw ModelError(
                code: .invalidModel, message: "Cannot make a model of class \(type).",
                issues: [
                    ModelIssue(
                        .invalidClassDeclaration, entity: type.entityName, property: varying.0.name,
                        "The initial value of \(type).\(varying.0.name) differs each time it is evaluated (as UUID() or "
                            + "Date() do), but a model's default value is one constant; set it in awakeFromInsert() "
                            + "instead.")
                ])
        }
        var remaining = reports[...]
        return levels.enumerated().map { index, level in
            let properties = level.wrappers.map { Property(name: $0.name, declaration: remaining.removeFirst()) }
            let superclass = index + 1 < levels.count ? levels[index + 1].type : nil
            let options = level.type.entityOptions
            let own = superclass.map { options == $0.entityOptions ? EntityOptions() : options } ?? options
            return ClassDeclaration(type: level.type, superclass: superclass, properties: properties, options: own)
        }
    }
}

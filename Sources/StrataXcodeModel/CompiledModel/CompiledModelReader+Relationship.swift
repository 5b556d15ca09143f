import Strata

extension CompiledModelReader {
    /// The fields of an archived relationship that ``relationship(_:in:)`` reads, or that only
    /// repeat what the model says (`NSEntity`, and the destination and inverse objects whose
    /// names are archived beside them).
    private static let relationshipKeys: Set<String> = [
        "NSPropertyName", "NSEntity", "_P", "NSIsOptional", "NSIsTransient", "NSIsOrdered", "NSDestinationEntity",
        "_NSDestinationEntityName", "NSInverseRelationship", "_NSInverseRelationshipName", "NSMinCount",
        "NSMaxCount", "NSDeleteRule", "NSRenamingIdentifier", "NSVersionHashModifier", "NSUserInfo",
    ]

    /// The fields of an archived fetched property that ``fetchedProperty(_:in:)`` reads, or
    /// that every fetched property has (it is optional, transient and read-only).
    private static let fetchedPropertyKeys: Set<String> = [
        "NSPropertyName", "NSEntity", "_P", "NSIsOptional", "NSIsTransient", "NSIsReadOnly", "NSFetchRequest",
        "_NSFetchRequestEntityName", "NSRenamingIdentifier", "NSUserInfo",
    ]

    /// The relationship described by the archived `NSRelationshipDescription` `object`.
    ///
    /// Read: `NSPropertyName`; `_NSDestinationEntityName` (or the name of the entity in
    /// `NSDestinationEntity`); `_NSInverseRelationshipName` (or the name of the relationship in
    /// `NSInverseRelationship`); `NSMinCount` and `NSMaxCount`, the relationship being to-many
    /// unless the maximum is 1 (0, or -1 for a model built in code, means no limit, and is kept
    /// as archived since it is hashed); `NSDeleteRule` (0 No Action, 1 Nullify, 2 Cascade,
    /// 3 Deny); optional, transient and ordered from `_P` (see ``PackedPropertyFlag``);
    /// `NSRenamingIdentifier`, `NSVersionHashModifier` and `NSUserInfo`.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for a missing name or destination, or an
    ///   unknown delete rule.
    mutating func relationship(_ object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> RelationshipDescription
    {
        let name = try requiredString("NSPropertyName", of: object, in: "a relationship of \(what)")
        let relationshipWhat = "the relationship '\(name)' of \(what)"
        noteUnusedKeys(of: object, used: Self.relationshipKeys)
        let destination = try destinationName(of: object, in: relationshipWhat)
        var inverse = try object.string("_NSInverseRelationshipName")
        if inverse == nil, let inverseRelationship = try object.object("NSInverseRelationship") {
            inverse = try requiredString(
                "NSPropertyName", of: inverseRelationship, in: "the inverse of \(relationshipWhat)")
        }
        let maxCount = try object.integer("NSMaxCount") ?? 0
        let minCount = try object.integer("NSMinCount") ?? 0
        let code = try object.integer("NSDeleteRule") ?? 0
        guard let deleteRule = RelationshipDescription.DeleteRule(coreDataCode: code) else {
            throw malformed(object, "\(relationshipWhat) has the delete rule \(code); expected 0, 1, 2 or 3")
        }
        var relationship = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: maxCount != 1,
            isOrdered: try propertyFlag(PackedPropertyFlag.isOrdered, key: "NSIsOrdered", of: object),
            minCount: Int(minCount), maxCount: Int(maxCount), deleteRule: deleteRule,
            isOptional: try propertyFlag(PackedPropertyFlag.isOptional, key: "NSIsOptional", of: object),
            isTransient: try propertyFlag(PackedPropertyFlag.isTransient, key: "NSIsTransient", of: object),
            renamingIdentifier: try renamingIdentifier(of: object, name: name),
            versionHashModifier: try object.string("NSVersionHashModifier"))
        relationship.userInfo = try userInfo(of: object, in: relationshipWhat)
        return relationship
    }

    /// The name of the destination entity of the relationship `object`.
    private func destinationName(of object: KeyedArchive.Object, in what: String) throws(ModelError) -> String {
        if let name = try object.string("_NSDestinationEntityName") { return name }
        guard let destination = try object.object("NSDestinationEntity") else {
            throw malformed(object, "\(what) has no destination entity")
        }
        return try requiredString("NSEntityName", of: destination, in: "the destination of \(what)")
    }

    /// The fetched property described by the archived `NSFetchedPropertyDescription` `object`,
    /// or nil when it is skipped.
    ///
    /// Read: `NSPropertyName`; `_NSFetchRequestEntityName` (or the entity of the fetch
    /// request); the predicate of `NSFetchRequest`; `NSUserInfo`. A fetched property whose
    /// predicate Strata cannot express is skipped and logged: keeping it without its predicate
    /// would fetch every object. The request's other options (sort descriptors, limits, …) are
    /// logged as ignored.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for a missing name, fetch request or entity.
    mutating func fetchedProperty(_ object: KeyedArchive.Object, in what: String) throws(ModelError)
        -> FetchedPropertyDescription?
    {
        let name = try requiredString("NSPropertyName", of: object, in: "a fetched property of \(what)")
        let propertyWhat = "the fetched property '\(name)' of \(what)"
        noteUnusedKeys(of: object, used: Self.fetchedPropertyKeys)
        guard let request = try object.object("NSFetchRequest") else {
            throw malformed(object, "\(propertyWhat) has no fetch request ('NSFetchRequest')")
        }
        noteUnusedKeys(of: request, used: Self.fetchRequestKeys)
        let destination: String
        if let entityName = try object.string("_NSFetchRequestEntityName") {
            destination = entityName
        } else {
            destination = try fetchEntityName(of: request, in: propertyWhat)
        }
        var property = FetchedPropertyDescription(name: name, destinationEntityName: destination)
        switch try archivedPredicate("NSPredicate", of: request) {
        case .absent:
            break
        case .format(let format):
            property.predicateFormat = format
        case .unsupported(let reason):
            skipped.skip(propertyWhat, because: "Strata cannot express its predicate. \(reason)", at: place(of: object))
            return nil
        }
        property.userInfo = try userInfo(of: object, in: propertyWhat)
        return property
    }
}

extension RelationshipDescription.DeleteRule {
    /// The rule Core Data's `NSDeleteRule` code names: 0 no action, 1 nullify, 2 cascade,
    /// 3 deny; `nil` for any other code.
    init?(coreDataCode code: Int64) {
        switch code {
        case 0: self = .noAction
        case 1: self = .nullify
        case 2: self = .cascade
        case 3: self = .deny
        default: return nil
        }
    }
}

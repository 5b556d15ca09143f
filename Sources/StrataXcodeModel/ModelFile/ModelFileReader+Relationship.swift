import Strata

extension ModelFileReader {
    /// The relationship described by a `<relationship>` element.
    ///
    /// An absent `optional` means *not* optional, an absent `minCount` means 0, and an absent
    /// `maxCount` means 1 for a to-one and 0 (no limit) for a to-many relationship, as in Core
    /// Data's compiled models. An absent `deletionRule` means Nullify. `inverseEntity` is not
    /// read: it repeats `destinationEntity`.
    ///
    /// - Throws: `ModelError/Code/malformedFile` for a missing name or destination, an unknown
    ///   delete rule or a count that is not an integer.
    mutating func relationship(_ element: SourceElement, in context: String) throws(ModelError)
        -> RelationshipDescription
    {
        let name = try required("name", of: element, in: context)
        let destination = try required("destinationEntity", of: element, in: context)
        let isToMany = try flag("toMany", of: element, in: context)
        let deleteRule: RelationshipDescription.DeleteRule
        switch element.attribute("deletionRule") {
        case nil, "Nullify": deleteRule = .nullify
        case "Cascade": deleteRule = .cascade
        case "Deny": deleteRule = .deny
        case "No Action": deleteRule = .noAction
        case let other?:
            throw malformed(
                element, in: context,
                "has deletionRule=\"\(other)\"; expected Nullify, Cascade, Deny or No Action.")
        }
        var relationship = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: element.attribute("inverseName"),
            isToMany: isToMany, isOrdered: try flag("ordered", of: element, in: context),
            minCount: try integer("minCount", of: element, in: context) ?? 0,
            maxCount: try integer("maxCount", of: element, in: context) ?? (isToMany ? 0 : 1),
            deleteRule: deleteRule, isOptional: try flag("optional", of: element, in: context),
            isTransient: try flag("transient", of: element, in: context),
            renamingIdentifier: element.attribute("elementID"),
            versionHashModifier: element.attribute("versionHashModifier"))
        ignoreAttributes(
            of: element,
            except: [
                "name", "destinationEntity", "inverseName", "toMany", "ordered", "minCount", "maxCount",
                "deletionRule", "optional", "transient", "elementID", "versionHashModifier",
            ])
        relationship.userInfo = try propertyUserInfo(of: element, in: context)
        return relationship
    }
}

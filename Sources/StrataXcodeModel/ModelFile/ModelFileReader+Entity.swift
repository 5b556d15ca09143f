import Strata

extension ModelFileReader {
    /// The entity described by an `<entity>` element and its children.
    ///
    /// `representedClassName` becomes `EntityDescription/className`, `parentEntity` the
    /// superentity's name, `elementID` the `EntityDescription/renamingIdentifier`, and
    /// `coreSpotlightDisplayNameExpression` the `EntityDescription/searchDisplayNameExpression`.
    mutating func entity(_ element: SourceElement) throws(ModelError) -> EntityDescription {
        let name = try required("name", of: element)
        let context = "entity '\(name)'"
        ignoreAttributes(
            of: element,
            except: [
                "name", "representedClassName", "parentEntity", "isAbstract", "versionHashModifier", "elementID",
                "coreSpotlightDisplayNameExpression",
            ])
        var entity = EntityDescription(
            name: name, isAbstract: try flag("isAbstract", of: element, in: context),
            superentityName: element.attribute("parentEntity"), className: element.attribute("representedClassName"))
        entity.versionHashModifier = element.attribute("versionHashModifier")
        entity.renamingIdentifier = element.attribute("elementID")
        entity.searchDisplayNameExpression = element.attribute("coreSpotlightDisplayNameExpression")
        for child in element.children {
            switch child.name {
            case "attribute":
                entity.attributes.append(try attribute(child, in: context))
            case "relationship":
                entity.relationships.append(try relationship(child, in: context))
            case "fetchedProperty":
                entity.fetchedProperties.append(try fetchedProperty(child, in: context))
            case "fetchIndex":
                if let index = try fetchIndex(child, in: context) { entity.fetchIndexes.append(index) }
            case "uniquenessConstraints":
                entity.uniquenessConstraints += try uniquenessConstraints(child, in: context)
            case "userInfo":
                entity.userInfo = try userInfo(child, in: context)
            default:
                ignore(child, inside: element.name)
            }
        }
        return entity
    }
}

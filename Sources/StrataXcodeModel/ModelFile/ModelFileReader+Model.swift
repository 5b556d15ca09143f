import Strata

extension ModelFileReader {
    /// The model described by `root`, which must be a `<model>` element.
    ///
    /// `userDefinedModelVersionIdentifier` becomes `ManagedObjectModel/versionIdentifiers`:
    /// `[""]` when present but empty (as Core Data does), `[]` when absent.
    ///
    /// `<composite>` elements are read where a `Composite` attribute names them, so each entity
    /// gets its own copy of the elements.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` for a wrong root
    ///   element or a malformed part.
    mutating func model(from root: SourceElement) throws(ModelError) -> ManagedObjectModel {
        guard root.name == "model" else {
            throw ModelError(
                code: .malformedFile,
                message:
                    "'\(path)', line \(root.line): the root element is <\(root.name)>, but an Xcode model file starts with <model>.",
                filePath: path, line: root.line)
        }
        ignoreAttributes(of: root, except: ["userDefinedModelVersionIdentifier"])
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var templates: [FetchRequestTemplate] = []
        for child in root.children where child.name == "composite" {
            let name = try required("name", of: child)
            guard composites[name] == nil else { throw malformed(child, "repeats the composite name '\(name)'.") }
            composites[name] = child
        }
        for child in root.children {
            switch child.name {
            case "entity":
                entities.append(try entity(child))
            case "fetchRequest":
                templates.append(try fetchRequestTemplate(child))
            case "configuration":
                let (name, members) = try configuration(child)
                configurations[name, default: []] += members
            case "composite":
                continue
            default:
                ignore(child, inside: root.name)
            }
        }
        return ManagedObjectModel(
            entities: entities, configurations: configurations, fetchRequestTemplates: templates,
            versionIdentifiers: root.attribute("userDefinedModelVersionIdentifier").map { [$0] } ?? [])
    }
}

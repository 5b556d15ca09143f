import ArgumentParser
import Foundation
import Strata

/// `strata model MODEL`: a model's entities, their properties and Core Data version hashes.
struct ModelSummary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Print a model's entities with their properties and Core Data version hashes.",
        discussion: """
            The model is checked first; one that is not valid fails with its problems. Each entity's \
            version hash is printed in base64, as Xcode writes it into a compiled model's VersionInfo.plist.
            """)

    @Argument(help: "A model JSON file, an .xcdatamodeld bundle, an .xcdatamodel, a compiled .momd or .mom.")
    var model: String

    @Option(
        help: ArgumentHelp(
            "The version of an .xcdatamodeld or .momd bundle to print instead of its current one.", valueName: "name"))
    var modelVersion: String?

    func run() throws {
        try reportingFailure {
            let loaded = try ModelOptions.load(model, version: modelVersion)
            try loaded.freeze()
            let identifiers = loaded.versionIdentifiers
            print(
                "\(model): \(loaded.entities.count) entities, version identifiers "
                    + (identifiers.isEmpty ? "none" : identifiers.sorted().joined(separator: ", ")))
            for entity in loaded.schema.entities { printEntity(entity) }
            for (name, entities) in loaded.configurations.sorted(by: { $0.key < $1.key }) {
                print("Configuration \(name): \(entities.sorted().joined(separator: ", "))")
            }
            print("JSON form: \(loaded.jsonData().count) bytes")
        }
    }

    private func printEntity(_ entity: EntitySchema) {
        var line = "  \(entity.name)"
        if let parent = entity.superentityNames.first { line += " : \(parent)" }
        if entity.description.isAbstract { line += " (abstract)" }
        print(line + "  " + Data(entity.versionHash).base64EncodedString())
        for attribute in entity.attributes { print("    \(attribute.name): \(attribute.type.modelFileName)") }
        for relationship in entity.relationships {
            let destination = relationship.destinationEntityName
            print("    \(relationship.name) → " + (relationship.isToMany ? "[\(destination)]" : destination))
        }
    }
}

import Foundation
import Testing

@testable import Strata

/// Transformable attributes hold their transformer's data; objects read and write the values
/// through the coordinator's transformers, and a store is added only when every transformer is.
@Suite struct TransformedValueTests {
    struct Palette: Codable, Sendable, Hashable {
        var colours: [String]
    }

    final class Poster: ManagedObject {
        @Managed var title: String?
        @Transformed(by: "PaletteTransformer") var palette: Palette?
        @Transformed(by: ValueTransformerRegistry.secureUnarchiveFromData) var tags: [any Sendable]?
    }

    static var transformers: ValueTransformerRegistry {
        var transformers = ValueTransformerRegistry()
        transformers.register(JSONValueTransformer<Palette>(), named: "PaletteTransformer")
        return transformers
    }

    static func stack(transformers: ValueTransformerRegistry = transformers) throws -> ManagedObjectContext {
        let coordinator = try PersistentStoreCoordinator(
            model: ManagedObjectModel(types: [Poster.self]), valueTransformers: transformers)
        try coordinator.addStore(.inMemory())
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func aTypedPropertyDeclaresATransformableAttributeNamingItsTransformer() throws {
        let model = try ManagedObjectModel(types: [Poster.self])
        let palette = try #require(model.entity(named: "Poster")?.attributes.first { $0.name == "palette" })
        #expect(palette.type == .transformable)
        #expect(palette.valueTransformerName == "PaletteTransformer")
        #expect(palette.isOptional)
    }

    @Test func valuesGoInAsTheTransformersDataAndComeBackThroughIt() throws {
        let context = try Self.stack()
        try context.performAndWait {
            let poster = Poster(context: context)
            poster.palette = Palette(colours: ["teal", "ochre"])
            poster.tags = ["print", 3]
            try context.save()
            context.reset()
            let read = try #require(try context.fetch(FetchRequest<Poster>()).first)
            #expect(read.palette == Palette(colours: ["teal", "ochre"]))
            #expect(read.tags?.count == 2)
            #expect(read.tags?.first as? String == "print")
            let stored = try JSONValueTransformer<Palette>().data(from: Palette(colours: ["teal", "ochre"]))
            #expect(try read.value(forKey: "palette") == .binary(stored))
            guard case .binary(let archived) = try read.value(forKey: "tags") else {
                Issue.record("Poster.tags holds no data")
                return
            }
            #expect(archived.starts(with: Array("bplist00".utf8)))
            read.palette = nil
            #expect(read.palette == nil)
            #expect(try read.value(forKey: "palette") == .null)
        }
    }

    @Test func theUntypedAccessorsReportWhatGoesWrong() throws {
        let context = try Self.stack()
        try context.performAndWait {
            let poster = Poster(context: context)
            let notTransformable = try #require(throws: ContextError.self) {
                try poster.transformedValue(forKey: "title")
            }
            #expect(notTransformable.code == .unknownKey)
            let refused = try #require(throws: ContextError.self) {
                try poster.setTransformedValue(42, forKey: "palette")
            }
            #expect(refused.code == .valueTransformation)
            #expect(refused.message.contains("Poster.palette"))
            try poster.setValue(.binary(Data("not json".utf8)), forKey: "palette")
            let unreadable = try #require(throws: ContextError.self) { try poster.transformedValue(forKey: "palette") }
            #expect(unreadable.code == .valueTransformation)
            #expect(unreadable.message.contains("PaletteTransformer"))
            try poster.setTransformedValue(Palette(colours: []), forKey: "palette")
            let wrongType = try #require(throws: ContextError.self) {
                try poster.transformedValue(forKey: "palette", as: String.self)
            }
            #expect(wrongType.code == .wrongType)
        }
    }

    @Test func aStoreIsNotAddedWhileATransformerIsMissing() throws {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(types: [Poster.self]))
        let error = try #require(throws: StoreError.self) { try coordinator.addStore(.inMemory()) }
        #expect(error.code == .missingValueTransformer)
        #expect(error.message.contains("'Poster.palette' (transformer 'PaletteTransformer')"))
        #expect(!error.message.contains("Poster.tags"))
        #expect(coordinator.stores.isEmpty)
    }

    @Test func onlyTheConfigurationsOwnTransformableAttributesNeedTransformers() throws {
        final class Note: ManagedObject {
            @Managed var text: String?
        }
        let model = try ManagedObjectModel(
            types: [Poster.self, Note.self], configurations: ["Notes": [Note.self], "Posters": [Poster.self]])
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory(configuration: "Notes"))
        #expect(throws: StoreError.self) { try coordinator.addStore(.inMemory(configuration: "Posters")) }
    }

    @Test func storedDataTransformersLetAToolOpenAnyModel() throws {
        let model = try ManagedObjectModel(types: [Poster.self])
        var transformers = ValueTransformerRegistry()
        transformers.registerStoredDataTransformers(for: model)
        #expect(transformers.missingTransformers(in: model).isEmpty)
        let context = try Self.stack(transformers: transformers)
        try context.performAndWait {
            let poster = Poster(context: context)
            try poster.setTransformedValue(Data([1, 2]), forKey: "palette")
            #expect(try poster.transformedValue(forKey: "palette", as: Data.self) == Data([1, 2]))
            #expect(throws: ContextError.self) { try poster.setTransformedValue("text", forKey: "palette") }
        }
    }
}

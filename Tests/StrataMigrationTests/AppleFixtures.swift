import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel

/// Models and stores made by Xcode and Core Data (Tests/Fixtures/coredata, see SOURCES.md).
enum AppleFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coredata")

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Copies the store at `path` (with its `-wal` and `-shm`, when there are) into
    /// `directory`, so that the fixture itself is never opened.
    static func copyStore(_ path: String, into directory: TemporaryDirectory) throws -> URL {
        let source = url(path)
        let copy = directory.file(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let side = URL(fileURLWithPath: source.path + suffix)
            guard FileManager.default.fileExists(atPath: side.path) else { continue }
            try FileManager.default.copyItem(at: side, to: URL(fileURLWithPath: copy.path + suffix))
        }
        return copy
    }

    /// The objects of `entityName` in the SQLite store at `url` read with `model`, each as its
    /// values by key (to-one relationships as the objects' `label` values, to-many ones as
    /// their sorted labels).
    static func objects(
        of entityName: String, in url: URL, model: ManagedObjectModel, label: [String: String] = [:]
    ) throws -> [[String: String]] {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        var description = PersistentStoreDescription.sqlite(at: url)
        description.shouldMigrateStoreAutomatically = false
        description.isReadOnly = true
        let store = try coordinator.addStore(description)
        defer { try? coordinator.remove(store) }
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            func name(_ object: ManagedObject?) throws -> String {
                guard let object, let key = label[object.entity.name] else { return "-" }
                return LibraryVersions.words(try object.value(forKey: key))
            }
            var request = FetchRequest<ManagedObject>(entityName: entityName)
            request.includesSubentities = true
            return try context.fetch(request).map { object in
                var values = ["entity": object.entity.name]
                for attribute in object.entity.attributes
                where !attribute.isTransient && attribute.type != .transformable {
                    values[attribute.name] = LibraryVersions.words(try object.value(forKey: attribute.name))
                }
                for relationship in object.entity.relationships where !relationship.isTransient {
                    values[relationship.name] =
                        relationship.isToMany
                        ? "\(try object.objects(forKey: relationship.name).map(name).sorted())"
                        : try name(object.object(forKey: relationship.name))
                }
                return values
            }
        }
    }

    /// `objects` keyed by the value of `key`, which must be unique.
    static func byKey(_ objects: [[String: String]], _ key: String) -> [String: [String: String]] {
        Dictionary(objects.map { ($0[key] ?? "-", $0) }, uniquingKeysWith: { first, _ in first })
    }
}

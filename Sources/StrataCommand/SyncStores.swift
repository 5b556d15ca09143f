import Foundation
import Strata
import StrataPostgres
import StrataStores
import StrataSync

/// Opening the stores `strata sync`, `sync-server` and `sync-token` work on: a replica's store,
/// read-write with its history, and a hub's.
enum SyncStores {
    /// A coordinator on the replica store at `path` (a file, or a PostgreSQL URL), opened
    /// read-write with its history. Its model is `model` with the sync entities, else the model
    /// the store records; a file that does not exist yet is made, of the type its extension
    /// names, when `model` is given.
    static func replica(at path: String, model: ManagedObjectModel?) throws -> PersistentStoreCoordinator {
        let url = StoreFile.url(of: path)
        let typeName: String
        let appModel: ManagedObjectModel
        if url.isFileURL, !FileManager.default.fileExists(atPath: url.path) {
            guard let model else {
                throw CommandFailure(description: "There is no store at '\(path)'; pass --model to make one.")
            }
            typeName = try newType(at: url).name
            appModel = model
        } else {
            let file = try StoreFile(path: path)
            typeName = file.typeName
            appModel = try file.model(model)
        }
        let syncModel =
            appModel.entities.contains { SyncModel.isSyncEntity($0.name) }
            ? appModel : try SyncModel.replicaModel(for: appModel)
        let coordinator = try StoreFile.coordinator(for: syncModel)
        var description = PersistentStoreDescription(type: typeName, url: url)
        description.tracksPersistentHistory = true
        _ = try coordinator.addStore(description)
        return coordinator
    }

    /// The hub in the store at `path` (a file, made as SQLite unless its extension names another
    /// type, or a PostgreSQL URL). A PostgreSQL hub is opened to hear at once, by `NOTIFY`, of
    /// the pushes other servers sharing it take.
    static func hub(at path: String, modelSupport: ModelSupport? = nil) throws -> StoreHub {
        let url = StoreFile.url(of: path)
        let type: StoreType
        if !url.isFileURL {
            type = .postgres
        } else if FileManager.default.fileExists(atPath: url.path) {
            type = try StoreType.builtInFileType(ofFileAt: url)
        } else {
            type = (try? newType(at: url)) ?? .sqlite
        }
        let coordinator = try PersistentStoreCoordinator(
            model: SyncModel.hubModel(), storeTypes: StoreFile.storeTypes)
        var description = PersistentStoreDescription(type: type.name, url: url)
        if type == .postgres {
            description.tracksPersistentHistory = true
            description.postsRemoteChangeNotifications = true
            coordinator.remoteChangeInterval = .milliseconds(20)
        }
        _ = try coordinator.addStore(description)
        return try StoreHub(coordinator: coordinator, modelSupport: modelSupport)
    }

    /// The type a new store at `url` is made as: the one `strata convert` names by extension.
    private static func newType(at url: URL) throws -> StoreType {
        guard let name = Convert.typesByExtension[url.pathExtension.lowercased()],
            let type = StoreFile.storeTypes.first(where: { $0.name == name })
        else {
            throw CommandFailure(
                description: "Cannot tell which type of store to make at '\(url.path)' from its extension; use "
                    + Convert.typesByExtension.keys.sorted().map { ".\($0)" }.joined(separator: ", ") + ".")
        }
        return type
    }
}

import Foundation
import Logging

/// The whole stack in one object: a model, a coordinator with its store types, the stores'
/// descriptions, a main-queue context for the interface and background contexts for work.
///
/// ```swift
/// let container = try PersistentContainer(
///     name: "Guidebook", model: model, storeTypes: [.sqlite], defaultStoreType: "SQLite")
/// try await container.loadPersistentStores()
/// try await container.performBackgroundTask { context in
///     let city = try context.insertNewObject(forEntityName: "City")
///     try city.setValue(.string("Lyon"), forKey: "name")
///     try context.save()
/// }
/// ```
///
/// `StrataStores` adds `PersistentContainer(name:model:)`, which knows every built-in store
/// type and defaults to an SQLite store.
///
/// Until ``loadPersistentStores()`` runs, ``persistentStoreDescriptions`` may be changed; the
/// default is one store of the default type named after the container in ``directoryURL``.
public final class PersistentContainer: Sendable {
    /// The container's name; the default store's file is named after it.
    public let name: String
    /// The model every store holds a configuration of.
    public let model: ManagedObjectModel
    /// The coordinator the stores are added to.
    public let coordinator: PersistentStoreCoordinator
    /// The context on the main queue, for work that drives a user interface; like Core Data's,
    /// it belongs to the main actor. It has a ``ManagedObjectContext/undoManager`` from the
    /// start, so that an interface can offer Undo and Redo; background contexts have none.
    /// (Core Data on iOS gives no context an undo manager, and on macOS every one; Strata gives
    /// one to the context an interface edits.)
    @MainActor public var viewContext: ManagedObjectContext { mainQueueContext }
    private let mainQueueContext: ManagedObjectContext
    /// The directory the default store's file is in.
    public let directoryURL: URL
    private let descriptions: Locked<[PersistentStoreDescription]>

    /// Creates a container for `model` whose coordinator knows `storeTypes` (and in-memory
    /// stores), with one default store of `defaultStoreType` at
    /// ``defaultStoreURL(name:type:directory:)``.
    ///
    /// The coordinator uses `valueTransformers` for the model's transformable attributes and logs
    /// to `logger` (``PersistentStoreCoordinator/logger``; by default nowhere); `observer` watches
    /// its work (``PersistentStoreCoordinator/observer``; by default nothing).
    ///
    /// - Throws: ``ModelError`` when the model is invalid; ``StoreError`` with code
    ///   ``StoreError/Code/invalidOption`` when `name` is not a file name (it is empty, `.` or
    ///   `..`, or holds a `/`), which would put the default store outside `directory`.
    public init(
        name: String, model: ManagedObjectModel, storeTypes: [StoreType],
        defaultStoreType: String = StoreType.inMemory.name, directory: URL = PersistentContainer.defaultDirectoryURL(),
        valueTransformers: ValueTransformerRegistry = ValueTransformerRegistry(),
        logger: Logger = PersistentStoreCoordinator.silentLogger, observer: (any OperationObserver)? = nil
    ) throws {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw StoreError(
                code: .invalidOption,
                message: "The container name '\(name)' is not a file name: the default store is named after it "
                    + "in '\(directory.path)', so it may not be empty, '.' or '..', or hold a '/'.")
        }
        self.name = name
        self.model = model
        directoryURL = directory
        coordinator = try PersistentStoreCoordinator(
            model: model, storeTypes: storeTypes, valueTransformers: valueTransformers, logger: logger,
            observer: observer)
        mainQueueContext = ManagedObjectContext(
            coordinator: coordinator, concurrencyType: .mainQueue, name: "viewContext")
        mainQueueContext.undoManager = ContextUndoManager()
        let url = Self.defaultStoreURL(name: name, type: defaultStoreType, directory: directory)
        descriptions = Locked([PersistentStoreDescription(type: defaultStoreType, url: url)])
    }

    /// Where a container puts its default store of `type`: `directory/name.type` with the type
    /// in lower case (`Guidebook.sqlite`), or `nil` for an in-memory store.
    public static func defaultStoreURL(name: String, type: String, directory: URL) -> URL? {
        guard type != StoreType.inMemory.name else { return nil }
        return directory.appendingPathComponent("\(name).\(type.lowercased())", isDirectory: false)
    }

    /// The stores ``loadPersistentStores()`` opens, in order.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { descriptions.withLock { $0 } }
        set { descriptions.withLock { $0 = newValue } }
    }

    /// Opens every described store and adds it to the coordinator, calling `completionHandler`
    /// once per description with the error that stopped it, if any. Stores whose description
    /// asks for it are opened off the caller's thread and reported later.
    public func loadPersistentStores(
        completionHandler: @escaping @Sendable (PersistentStoreDescription, (any Error)?) -> Void
    ) {
        for description in persistentStoreDescriptions {
            if description.shouldAddStoreAsynchronously {
                Task.detached { [self] in completionHandler(description, load(description)) }
            } else {
                completionHandler(description, load(description))
            }
        }
    }

    /// Opens every described store off the caller's thread and adds it to the coordinator.
    ///
    /// - Throws: ``PersistentContainerLoadError`` listing each store that failed with its
    ///   error; the stores that opened stay added.
    public func loadPersistentStores() async throws {
        let failures = await Task.detached { [self] in
            persistentStoreDescriptions.compactMap { description in
                load(description).map { PersistentContainerLoadError.Failure(storeDescription: description, error: $0) }
            }
        }.value
        if !failures.isEmpty { throw PersistentContainerLoadError(failures: failures) }
    }

    /// A new context on a private queue of its own, with no undo manager.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue, name: "background")
    }

    /// Runs `body` on a new background context's queue (with no undo manager) and returns its
    /// result.
    public func performBackgroundTask<T: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try body(context) }
    }

    /// Opens one store, creating the directory of a store file first; the error, or `nil` when
    /// it was added.
    private func load(_ description: PersistentStoreDescription) -> (any Error)? {
        do {
            if let url = description.url, url.isFileURL {
                let directory = url.deletingLastPathComponent()
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try coordinator.addStore(description)
            return nil
        } catch {
            return error
        }
    }
}

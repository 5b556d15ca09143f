import Foundation

/// A kind of store a coordinator can open by name: how to open one, and how to read, write and
/// destroy a store's file without opening it.
///
/// Built-in types are ready on every coordinator (``inMemory``; the store modules add their own,
/// such as `StoreType.sqlite`). A third-party store is registered with
/// ``PersistentStoreCoordinator/register(_:)``, either from an ``AtomicStore`` with
/// ``atomic(name:makeStore:)`` or with its own closures:
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(model: model)
/// coordinator.register(.atomic(name: "CSV") { url in CSVStore(url: url) })
/// try coordinator.addStore(type: "CSV", at: url)
/// ```
///
/// Obligations of a store type's author:
/// - `open` returns a store for the request's model and configuration, creating the file when
///   there is none; an existing file written with an incompatible model is
///   ``StoreError/Code/incompatibleModel``; a damaged or foreign one ``StoreError/Code/corrupt``.
/// - `readMetadata` returns the file's metadata, or `nil` when there is no file, without
///   opening the store; `writeMetadata` replaces it atomically.
/// - `destroy` removes the file and every side file it has; a missing file is not an error.
/// - `replace`, when given, swaps the destination's contents for a copy of the source's so that
///   a reader sees one or the other, never a mix.
public struct StoreType: Sendable {
    /// The type's name, as used in ``PersistentStoreCoordinator/addStore(type:configuration:at:options:)``.
    public let name: String
    let open: @Sendable (StoreOpenRequest) throws -> any IncrementalStore
    let readMetadata: @Sendable (URL) throws -> StoreMetadata?
    let writeMetadata: @Sendable (StoreMetadata, URL) throws -> Void
    let destroy: @Sendable (URL) throws -> Void
    let replace: (@Sendable (_ destination: URL, _ source: URL) throws -> Void)?

    /// Creates a store type from its operations.
    ///
    /// - Parameters:
    ///   - name: The type's name; registering a second type with the same name replaces the first.
    ///   - open: Opens or creates a store.
    ///   - readMetadata: Reads a file's metadata without opening it; `nil` when there is no file.
    ///   - writeMetadata: Replaces a file's metadata atomically.
    ///   - destroy: Removes a store's file and side files.
    ///   - replace: Replaces the store at its first URL with a copy of the store at its second,
    ///     atomically; `nil` when the type cannot (replacing then fails with
    ///     ``StoreError/Code/unsupported``).
    public init(
        name: String,
        open: @escaping @Sendable (StoreOpenRequest) throws -> any IncrementalStore,
        readMetadata: @escaping @Sendable (URL) throws -> StoreMetadata?,
        writeMetadata: @escaping @Sendable (StoreMetadata, URL) throws -> Void,
        destroy: @escaping @Sendable (URL) throws -> Void,
        replace: (@Sendable (_ destination: URL, _ source: URL) throws -> Void)? = nil
    ) {
        self.name = name
        self.open = open
        self.readMetadata = readMetadata
        self.writeMetadata = writeMetadata
        self.destroy = destroy
        self.replace = replace
    }
}

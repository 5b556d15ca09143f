import Foundation

/// A kind of store a coordinator can open by name: how to open one, and how to read, write and
/// destroy a store's file without opening it.
///
/// Built-in types are ready on every coordinator (``inMemory``; the store modules add their own,
/// such as `StoreType.sqlite`). A third-party store is registered with
/// ``PersistentStoreCoordinator/register(_:)``, either from an ``AtomicStore`` with
/// ``atomic(name:variant:recognize:describeFormat:makeStore:)`` or with its own closures:
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(model: model)
/// coordinator.register(.atomic(name: "CSV") { url in CSVStore(url: url) })
/// try coordinator.addStore(type: "CSV", at: url)
/// ```
///
/// Obligations of a store type's author, with the conformance checks that enforce them:
/// - `open` returns a store for the request's model and configuration, creating the file when
///   there is none; an existing file written with an incompatible model is
///   ``StoreError/Code/incompatibleModel``; a damaged or foreign one ``StoreError/Code/corrupt``
///   (or another typed error), and it is left as it was. Checks: `A.createsAtMissingURL`,
///   `A.zeroLengthFileIsNewStore`, `A.incompatibleModelRefused`, `N.*`.
/// - `readMetadata` returns the file's metadata, or `nil` when there is no file, without
///   opening the store; `writeMetadata` replaces it atomically. Checks:
///   `A.metadataOfMissingFileIsNil`, `A.userKeysWithoutOpening`, `M.killDuringClosedMetadataWrites`.
/// - `destroy` removes the file and every side file it has; a missing file is not an error.
///   Checks: `A.destroyRemovesTheStore`.
/// - `replace`, when given, swaps the destination's contents for a copy of the source's so that
///   a reader sees one or the other, never a mix. Checks: none yet.
/// - `recognize`, when given, accepts the type's own files and no others. Checks: none yet.
/// - `migrateInPlace`, when given, migrates a store's file where it is, all steps or none, or
///   declines; a failure leaves the file as it was. Checks: `O.modelVersion.*`.
/// - `temporaryURL`, when given, names a place for a new store of the type beside a store's
///   own, which `replace` can swap in: where a migration writes its copy. Checks:
///   `O.modelVersion.*`, through a migration of the store in its place.
public struct StoreType: Sendable, Hashable {
    /// The type's name, as used in `addStore(type:configuration:at:options:)`.
    public let name: String
    /// What this value of the type was made with beyond its name, such as typed options: two
    /// values of a type are equal when their names and these are.
    let variant: (any Hashable & Sendable)?
    let open: @Sendable (StoreOpenRequest) throws -> any IncrementalStore
    let readMetadata: @Sendable (URL) throws -> StoreMetadata?
    let writeMetadata: @Sendable (StoreMetadata, URL) throws -> Void
    let destroy: @Sendable (URL) throws -> Void
    let replace: (@Sendable (_ destination: URL, _ source: URL) throws -> Void)?
    let recognize: (@Sendable (_ prefix: [UInt8]) -> Bool)?
    let describeFormat: (@Sendable (URL) throws -> String)?
    let migrateInPlace: (@Sendable (InPlaceMigrationRequest) throws -> Bool)?
    let temporaryURL: (@Sendable (_ beside: URL) -> URL)?

    /// Creates a store type from its operations.
    ///
    /// - Parameters:
    ///   - name: The type's name; registering a second type with the same name replaces the first.
    ///   - variant: What this value of the type was made with beyond its name (typed options,
    ///     say); values of a type compare equal when their names and variants are. `nil` for
    ///     a type that reads its options from ``StoreOptions/settings``.
    ///   - open: Opens or creates a store.
    ///   - readMetadata: Reads a file's metadata without opening it; `nil` when there is no file.
    ///   - writeMetadata: Replaces a file's metadata atomically.
    ///   - destroy: Removes a store's file and side files.
    ///   - replace: Replaces the store at its first URL with a copy of the store at its second,
    ///     atomically; `nil` when the type cannot (replacing then fails with
    ///     ``StoreError/Code/unsupported``).
    ///   - recognize: Whether the first bytes of a file (up to 4 096) are a store of this type;
    ///     `nil` when the type cannot tell, and then files are never taken for its own.
    ///   - describeFormat: The line `strata inspect` prints about a file's format (the versions
    ///     it records); `nil` when the type has nothing to say.
    ///   - migrateInPlace: Migrates a store's file in place (see ``InPlaceMigrationRequest``),
    ///     returning `false` to decline; `nil` when the type cannot, and then every migration
    ///     copies the store into a new file.
    ///   - temporaryURL: A new URL for a store of this type beside the store at the given URL,
    ///     that `replace` can swap in for it: where a migration writes the copy that replaces a
    ///     store. `nil` gives a hidden file in the same folder
    ///     (`.<name>.migrating-<UUID>.<extension>`), which suits every store kept in a file.
    public init(
        name: String,
        variant: (any Hashable & Sendable)? = nil,
        open: @escaping @Sendable (StoreOpenRequest) throws -> any IncrementalStore,
        readMetadata: @escaping @Sendable (URL) throws -> StoreMetadata?,
        writeMetadata: @escaping @Sendable (StoreMetadata, URL) throws -> Void,
        destroy: @escaping @Sendable (URL) throws -> Void,
        replace: (@Sendable (_ destination: URL, _ source: URL) throws -> Void)? = nil,
        recognize: (@Sendable (_ prefix: [UInt8]) -> Bool)? = nil,
        describeFormat: (@Sendable (URL) throws -> String)? = nil,
        migrateInPlace: (@Sendable (InPlaceMigrationRequest) throws -> Bool)? = nil,
        temporaryURL: (@Sendable (_ beside: URL) -> URL)? = nil
    ) {
        self.name = name
        self.variant = variant
        self.open = open
        self.readMetadata = readMetadata
        self.writeMetadata = writeMetadata
        self.destroy = destroy
        self.replace = replace
        self.recognize = recognize
        self.describeFormat = describeFormat
        self.migrateInPlace = migrateInPlace
        self.temporaryURL = temporaryURL
    }

    /// Whether the two are the same type made with the same variant.
    public static func == (lhs: StoreType, rhs: StoreType) -> Bool {
        lhs.name == rhs.name && lhs.variantKey == rhs.variantKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(variantKey)
    }

    /// The variant, erased so that it compares and hashes.
    private var variantKey: AnyHashable? { variant.map { AnyHashable($0) } }

    /// The metadata of the store of this type at `url`, read without opening it; `nil` when
    /// there is no file.
    public func metadata(ofFileAt url: URL) throws -> StoreMetadata? { try readMetadata(url) }

    /// Whether the first bytes of a file, `prefix`, are a store of this type.
    public func recognizes(prefix: [UInt8]) -> Bool { recognize?(prefix) ?? false }

    /// A line on the format of the store file at `url`, such as the versions it records; `nil`
    /// when the type has nothing to say.
    ///
    /// - Throws: ``StoreError`` when the file cannot be read as a store of this type.
    public func formatDescription(ofFileAt url: URL) throws -> String? { try describeFormat?(url) }
}

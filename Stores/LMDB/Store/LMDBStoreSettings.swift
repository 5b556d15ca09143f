import Strata

/// The store's settings: the typed options, else the string settings, else the defaults.
struct LMDBStoreSettings {
    /// The map's size in bytes when the store's file is created.
    let initialMapSize: Int
    /// Whether commits skip flushing to disk.
    let relaxedDurability: Bool
    /// When the data file is checked before it is mapped.
    let verification: LMDBVerification

    /// The default initial map: 1 MiB, grown by doubling whenever it fills.
    static let defaultMapSize = 1 << 20

    /// - Throws: `StoreError` with code `StoreError/Code/invalidOption` for a string
    ///   setting that does not read as its kind.
    init(_ typed: LMDBStoreOptions?, settings options: StoreOptions) throws {
        let name = LMDBStore.storeTypeName
        let requested = try typed?.mapSize ?? options.integer("mapSize", of: name) ?? Self.defaultMapSize
        let granule = 1 << 16
        initialMapSize = max(granule, (min(requested, 1 << 40) + granule - 1) / granule * granule)
        relaxedDurability = try typed?.relaxedDurability ?? options.boolean("relaxedDurability", of: name) ?? false
        verification = try typed?.verification ?? Self.verification(in: options) ?? .whenChanged
    }

    /// The string setting `verification`; `nil` when it is not set.
    private static func verification(in options: StoreOptions) throws -> LMDBVerification? {
        guard let text = options.settings["verification"] else { return nil }
        guard let verification = LMDBVerification(rawValue: text) else {
            throw StoreError(
                code: .invalidOption,
                message: "The \(LMDBStore.storeTypeName) setting 'verification' is '\(text)'; it takes "
                    + LMDBVerification.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        return verification
    }
}

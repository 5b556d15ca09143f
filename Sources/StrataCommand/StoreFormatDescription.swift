import Strata

/// The line `strata inspect` prints about the format of a store file: what its store type
/// reads of the format's versions (``StoreType/formatDescription(ofFileAt:)``).
enum StoreFormatDescription {
    /// What the file of `file` says about its format.
    static func describe(_ file: StoreFile) throws -> String {
        let type = try file.coordinator.storeType(named: file.typeName)
        return "Format: " + (try type.formatDescription(ofFileAt: file.url) ?? "unknown for a \(file.typeName) store")
    }
}

import Foundation

/// Where an exporter got to, kept in the index file in the same transaction as the entries it
/// describes (``SearchIndex/position()``), as JSON.
struct SearchExportPosition: Codable, Hashable {
    /// What the entries were made from: the indexed entities' version hashes, indexed keys and
    /// display names, and the exporter's version. An index made from anything else is rebuilt.
    var fingerprint: String
    /// The identifier of the store the entries come from.
    var storeIdentifier: String
    /// The number of the last transaction of the store's history the entries hold.
    var transactionNumber: Int64
    /// While the first export runs, the URI of the last object it exported, in export order
    /// (empty before the first batch); `nil` once it is done.
    var exportedThrough: String?

    /// The position kept in `data`, or `nil` when there is none or it is not one an exporter wrote.
    init?(_ data: Data?) {
        guard let data, let position = try? JSONDecoder().decode(Self.self, from: data) else { return nil }
        self = position
    }

    init(fingerprint: String, storeIdentifier: String, transactionNumber: Int64, exportedThrough: String?) {
        self.fingerprint = fingerprint
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
        self.exportedThrough = exportedThrough
    }

    /// The position as it is written to the index.
    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding strings and integers cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}

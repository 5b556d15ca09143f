import Foundation
import Strata

/// One step of an exporter: the first export where it is due, then the store's history after
/// the index's position, a batch at a time, each batch written with its position.
extension SearchIndexExporter {
    /// Brings the index up to date while `continuing` says so, checked before each batch.
    func export(while continuing: () -> Bool) throws {
        let entities = try SearchedEntity.all(in: coordinator, store: store)
        let fingerprint = (["version \(version)"] + entities.map(\.fingerprint)).joined(separator: "|")
        var position: SearchExportPosition
        if let kept = SearchExportPosition(try index.position()), kept.fingerprint == fingerprint,
            kept.storeIdentifier == store.identifier
        {
            position = kept
        } else {
            try index.removeAll()
            let latest = try reading { try coordinator.currentPersistentHistoryTokens(fromStores: [store]) }
            position = SearchExportPosition(
                fingerprint: fingerprint, storeIdentifier: store.identifier,
                transactionNumber: latest.first?.transactionNumber ?? 0, exportedThrough: "")
            try index.apply(upserting: [], removing: [], position: position.data)
        }
        let reader = SearchObjectReader(
            coordinator: coordinator, store: store, entities: entities, fields: fields)
        if position.exportedThrough != nil {
            guard try exportEverything(from: &position, with: reader, while: continuing) else { return }
        }
        try applyHistory(from: &position, with: reader, while: continuing)
    }

    /// Indexes every object after the position's last exported one, in export order; `false`
    /// when `continuing` stopped it before the end.
    private func exportEverything(
        from position: inout SearchExportPosition, with reader: SearchObjectReader, while continuing: () -> Bool
    ) throws -> Bool {
        let all = try reading { try reader.allObjectIDs() }
        let pending =
            position.exportedThrough.flatMap { ObjectID(uriString: $0) }.map { exported in
                all.filter { SearchObjectReader.precedes(exported, $0) }
            } ?? all
        for start in stride(from: 0, to: pending.count, by: batchSize) {
            guard continuing() else { return false }
            let batch = pending[start..<min(start + batchSize, pending.count)]
            let (rows, _) = try reading { try reader.entries(for: Array(batch)) }
            position.exportedThrough = batch.last?.uriString
            try index.apply(rows: rows, new: true, removing: [], position: position.data)
            broadcast.yield(.indexed(upserted: rows.count, removed: 0, isCurrent: false))
        }
        position.exportedThrough = nil
        try index.apply(rows: [], removing: [], position: position.data)
        return true
    }

    /// Applies the store's transactions after the position, as many whole transactions per
    /// batch as hold at most ``batchSize`` changes (one at least).
    private func applyHistory(
        from position: inout SearchExportPosition, with reader: SearchObjectReader, while continuing: () -> Bool
    ) throws {
        let after = PersistentHistoryToken(
            storeIdentifier: store.identifier, transactionNumber: position.transactionNumber)
        let request = PersistentHistoryRequest(.fetch(after: .token(after)), affectedStores: [store])
        guard case .transactions(let transactions) = try reading({ try coordinator.execute(request) }),
            !transactions.isEmpty
        else {
            broadcast.yield(.indexed(upserted: 0, removed: 0, isCurrent: true))
            return
        }
        let batches = Self.batches(of: transactions, holding: batchSize)
        for (number, batch) in batches.enumerated() {
            guard continuing() else { return }
            var exists: [ObjectID: Bool] = [:]
            for change in batch.flatMap({ $0.changes ?? [] }) where reader.indexes(change.changedObjectID) {
                exists[change.changedObjectID] = change.changeType != .delete
            }
            let (rows, left) = try reading { try reader.entries(for: exists.filter(\.value).map(\.key)) }
            let removed = exists.filter { !$0.value }.map(\.key.uriString) + left
            position.transactionNumber = batch.last?.token.transactionNumber ?? position.transactionNumber
            try index.apply(rows: rows, removing: removed, position: position.data)
            broadcast.yield(
                .indexed(upserted: rows.count, removed: removed.count, isCurrent: number == batches.count - 1))
        }
    }

    /// `transactions` in runs of whole transactions holding at most `limit` changes, or one
    /// transaction that holds more.
    private static func batches(
        of transactions: [PersistentHistoryTransaction], holding limit: Int
    ) -> [[PersistentHistoryTransaction]] {
        var batches: [[PersistentHistoryTransaction]] = []
        var current: [PersistentHistoryTransaction] = []
        var changes = 0
        for transaction in transactions {
            let count = transaction.changes?.count ?? 0
            if !current.isEmpty, changes + count > limit {
                batches.append(current)
                current = []
                changes = 0
            }
            current.append(transaction)
            changes += count
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Runs `body`, turning an error other than ``SearchError`` into one with code
    /// ``SearchError/Code/export`` naming the store.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SearchError {
            throw error
        } catch {
            throw SearchError(
                code: .export, message: "Indexing \(store.nameInMessages) for search failed: \(error)")
        }
    }
}

import Strata

extension CheckStack {
    /// Saves one `Sample` per serial through the context, with `int16` the serial modulo 3
    /// and `string` `"s<serial>"`, and returns their IDs in serial order.
    @discardableResult
    func saveSamples(_ serials: ClosedRange<Int>) throws -> [ObjectID] {
        let objects = try serials.map { serial in
            try insert(
                ConformanceModel.sample,
                [
                    "serial": .integer64(Int64(serial)), "int16": .integer16(Int16(serial % 3)),
                    "string": .string("s\(serial)"),
                ])
        }
        try save()
        return objects.map(\.objectID)
    }

    /// The IDs the store answers `request` with, asked for as ``StoreFetchRequest/ResultType/objectIDs``.
    func storeIDs(_ request: StoreFetchRequest) throws -> [ObjectID] {
        var request = request
        request.resultType = .objectIDs
        let result = try store.execute(request)
        guard case .objectIDs(let ids) = result else {
            throw CheckFailure("A fetch of \(request.entityName) for object IDs returned \(result).")
        }
        return ids
    }

    /// The snapshots the store answers `request` with, asked for as ``StoreFetchRequest/ResultType/snapshots``.
    func storeSnapshots(_ request: StoreFetchRequest) throws -> [Snapshot] {
        var request = request
        request.resultType = .snapshots
        let result = try store.execute(request)
        guard case .snapshots(let snapshots) = result else {
            throw CheckFailure("A fetch of \(request.entityName) for snapshots returned \(result).")
        }
        return snapshots
    }

    /// The count the store answers `request` with, asked for as ``StoreFetchRequest/ResultType/count``.
    func storeCount(_ request: StoreFetchRequest) throws -> Int {
        var request = request
        request.resultType = .count
        let result = try store.execute(request)
        guard case .count(let count) = result else {
            throw CheckFailure("A fetch of \(request.entityName) for a count returned \(result).")
        }
        return count
    }

    /// Every stored `Sample`, sorted by serial.
    func storedSamples() throws -> [Snapshot] {
        try storeSnapshots(
            StoreFetchRequest(entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")]))
    }
}

extension Snapshot {
    /// The `serial` value, for failure messages and comparisons.
    var serial: AttributeValue { values["serial"] ?? .null }
}

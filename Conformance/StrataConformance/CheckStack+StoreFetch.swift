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

    /// Every stored `Sample`, sorted by serial.
    func storedSamples() throws -> [Snapshot] {
        try store.fetchedSnapshots(
            StoreFetchRequest(entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")]))
    }
}

extension Snapshot {
    /// The `serial` value, for failure messages and comparisons.
    var serial: AttributeValue { values["serial"] ?? .null }
}

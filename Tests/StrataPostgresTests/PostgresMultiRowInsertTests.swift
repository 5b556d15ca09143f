import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A save inserts rows by multi-row `INSERT` statements, one per table for as many rows as
/// PostgreSQL's 65 535 parameters allow: every value of every type, nulls included, comes back
/// as it was saved, and a wide table's rows are split across statements.
@Suite struct PostgresMultiRowInsertTests {
    /// The value types a column holds, each used by 14 attributes of `Wide` (140 in all, and
    /// its row number, so that a row binds 145 parameters and a statement holds at most 451 rows).
    static let types: [AttributeType] = [
        .integer16, .integer32, .integer64, .double, .float, .boolean, .string, .binary, .decimal, .uuid,
    ]

    static let model = ManagedObjectModel {
        EntityDescription("Wide") {
            AttributeDescription("row", .integer32)
            for (index, type) in (0..<140).map({ ($0, types[$0 % types.count]) }) {
                AttributeDescription("a\(index)", type)
            }
        }
        EntityDescription("Narrow") { AttributeDescription("label", .string) }
    }

    /// Attribute `index`'s value for object `row`: null for one object in five, else a value
    /// of its type that differs from row to row.
    static func value(_ index: Int, row: Int) -> AttributeValue {
        guard (row + index) % 5 != 0 else { return .null }
        let number = row * 1000 + index
        return switch types[index % types.count] {
        case .integer16: .integer16(Int16(truncatingIfNeeded: number))
        case .integer32: .integer32(Int32(number))
        case .integer64: .integer64(Int64(number) << 33)
        case .double: .double(Double(number) / 7)
        case .float: .float(Float(number) / 3)
        case .boolean: .boolean(number % 2 == 0)
        case .string: .string("ä\(number)\0x")
        case .binary: .binary(Data([0, UInt8(truncatingIfNeeded: number), 255]))
        case .decimal: .decimal(Decimal(number) / 100)
        default: .uuid(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!)
        }
    }

    @Test func aSaveOfManyRowsWritesEveryValueThroughFewStatements() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("rows"))
        let log = CapturedLog()
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, storeTypes: [.postgres], logger: log.logger())
        let store = try coordinator.addStore(
            type: StoreType.postgres.name, at: url, options: StoreOptions(settings: ["slowStatementThreshold": "0"]))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            for row in 0..<1000 {
                let wide = try context.insertNewObject(forEntityName: "Wide")
                try wide.setValue(.integer32(Int32(row)), forKey: "row")
                for index in 0..<140 { try wide.setValue(Self.value(index, row: row), forKey: "a\(index)") }
                let narrow = try context.insertNewObject(forEntityName: "Narrow")
                try narrow.setValue(.string("n\(row)"), forKey: "label")
            }
            try context.save()
        }
        let inserts = log.lines("Slow SQL pipeline").filter { $0.metadata["sql"]?.contains("INSERT INTO") == true }
        #expect(inserts.count == 1)
        // 1000 wide rows in statements of 451, 451 and 98; 1000 narrow rows in two of 500.
        #expect(inserts.first?.metadata["statements"] == "5", "\(inserts)")
        try coordinator.remove(store)

        let reader = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
        try reader.addStore(type: StoreType.postgres.name, at: url)
        let check = ManagedObjectContext(coordinator: reader)
        try check.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Wide")
            request.sortDescriptors = [FetchSortDescriptor("row")]
            let rows = try check.fetch(request)
            #expect(rows.count == 1000)
            var mismatches: [String] = []
            for (row, object) in rows.enumerated() {
                for index in 0..<140 where try object.value(forKey: "a\(index)") != Self.value(index, row: row) {
                    mismatches.append("row \(row) a\(index)")
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
            #expect(try check.count(for: FetchRequest<ManagedObject>(entityName: "Narrow")) == 1000)
        }
    }
}

import Strata
import Testing

@testable import StrataSQLite

/// Each leaf element of a composite attribute has its own column, named as Core Data names it:
/// after the element alone, numbered when the name is taken.
@Suite struct SQLiteCompositeColumnTests {
    @Test func leafElementsGetColumnsNamedAfterThemselves() throws {
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("city", .string)
                AttributeDescription.composite(
                    "address",
                    elements: [
                        AttributeDescription("city", .string),
                        AttributeDescription.composite("geo", elements: [AttributeDescription("latitude", .double)]),
                    ])
            }
        }
        try model.freeze()
        let layout = SQLiteSchema(schema: model.schema, entityNames: ["Place"])
        let table = try #require(layout.tableOfEntity["Place"])
        let columns = Dictionary(
            uniqueKeysWithValues: table.columns.compactMap { column -> (String, String)? in
                guard case .attribute(_, let name) = column.role else { return nil }
                return (name, "\(column.name) \(column.type.rawValue)")
            })
        #expect(
            columns == [
                "city": "ZCITY VARCHAR", "address.city": "ZCITY1 VARCHAR", "address.geo.latitude": "ZLATITUDE FLOAT",
            ])
    }
}

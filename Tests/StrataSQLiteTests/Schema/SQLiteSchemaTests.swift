import Strata
import Testing

@testable import StrataSQLite

/// The layout rules no Apple-made fixture shows, inferred from public readers of Apple stores
/// (COREDATA-FORMATS §C.4): join tables, order columns and name clashes.
@Suite struct SQLiteSchemaTests {
    let layout: SQLiteSchema

    init() throws {
        let model = ManagedObjectModel {
            EntityDescription("Album") {
                AttributeDescription("title", .string)
                RelationshipDescription.toMany("assets", destination: "Asset", inverse: "albums", ordered: true)
            }
            EntityDescription("Asset") {
                AttributeDescription("title", .string)
                RelationshipDescription.toMany("albums", destination: "Album", inverse: "assets")
                RelationshipDescription.toOne("session", destination: "Session", inverse: "assets")
                RelationshipDescription.toMany("friends", destination: "Asset", inverse: "friends")
            }
            EntityDescription("Photo", parent: "Asset") { AttributeDescription("width", .integer32) }
            EntityDescription("Video", parent: "Asset") { AttributeDescription("width", .double) }
            EntityDescription("Session") {
                AttributeDescription("start", .date)
                RelationshipDescription.toMany("assets", destination: "Asset", inverse: "session", ordered: true)
                RelationshipDescription.toOne("cover", destination: "Asset")
                FetchIndexDescription(name: "byStart", elements: [.init(propertyName: "start", isAscending: false)])
            }
        }
        try model.freeze()
        layout = SQLiteSchema(schema: model.schema, entityNames: Set(model.schema.entitiesByName.keys))
    }

    private func columns(of table: String) -> [String] {
        layout.entityTables.first { $0.name == table }?.columns.map { "\($0.name) \($0.type.rawValue)" } ?? []
    }

    /// Every name the layout writes into SQL passes the one identifier rule, which refuses what
    /// could end a name: the check a store makes before creating any table.
    @Test func everyNameWrittenIntoSQLIsAnIdentifier() throws {
        #expect(layout.identifiers.contains("ZASSET") && layout.identifiers.contains("Z_Session_byStart"))
        #expect(layout.identifiers.contains("ZSTART"), "index columns are checked without their COLLATE words")
        #expect(layout.firstInvalidIdentifier == nil)
        try layout.checkIdentifiers(storeName: "The test store")
        for name in [#"Z"A"#, "Z_A;DROP", "Z A", "Z\tA", "Z--", "\u{0D4E}\"", "Z\u{200B}", "", "1Z"] {
            #expect(!SQLiteSchema.isIdentifier(name), "\(name.debugDescription)")
        }
    }

    @Test func entitiesAreNumberedRootsByNameEachFollowedByItsSubentities() {
        #expect(layout.entityNumbers == ["Album": 1, "Asset": 2, "Photo": 3, "Video": 4, "Session": 5])
        #expect(layout.superentities == ["Photo": "Asset", "Video": "Asset"])
        #expect(layout.tableOfEntity["Video"]?.name == "ZASSET")
    }

    @Test func subentityColumnsJoinTheRootTableAndClashingNamesGetANumber() {
        #expect(
            columns(of: "ZASSET") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZSESSION INTEGER", "Z_FOK_SESSION INTEGER",
                "ZWIDTH INTEGER", "ZWIDTH1 FLOAT", "ZTITLE VARCHAR",
            ])
    }

    @Test func aToOneToADestinationWithSubentitiesRecordsTheDestinationEntity() {
        #expect(
            columns(of: "ZSESSION") == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZCOVER INTEGER", "Z2_COVER INTEGER",
                "ZSTART TIMESTAMP",
            ])
    }

    @Test func manyToManyRelationshipsGetAJoinTableNamedAfterTheFirstSide() throws {
        let albums = try #require(layout.joinTables.first { $0.relationship == "assets" })
        #expect(albums.name == "Z_1ASSETS")
        #expect(albums.sourceColumn == "Z_1ALBUMS")
        #expect(albums.destinationColumn == "Z_2ASSETS")
        #expect(albums.orderColumn == "Z_FOK_2ASSETS")
        let friends = try #require(layout.joinTables.first { $0.relationship == "friends" })
        #expect(
            [friends.name, friends.sourceColumn, friends.destinationColumn] == [
                "Z_2FRIENDS", "Z_2FRIENDS", "Z_2FRIENDS1",
            ])
        #expect(layout.joinTables.count == 2)
    }

    @Test func statementsSpellTablesAndIndexesAsCoreDataDoes() {
        let statements = layout.createStatements
        #expect(
            statements.contains(
                "CREATE TABLE Z_1ASSETS ( Z_1ALBUMS INTEGER, Z_2ASSETS INTEGER, Z_FOK_2ASSETS INTEGER, PRIMARY KEY (Z_1ALBUMS, Z_2ASSETS) )"
            ))
        #expect(statements.contains("CREATE INDEX ZASSET_Z_ENT_INDEX ON ZASSET (Z_ENT)"))
        #expect(statements.contains("CREATE INDEX ZASSET_ZSESSION_INDEX ON ZASSET (ZSESSION)"))
        #expect(statements.contains("CREATE INDEX Z_Session_byStart ON ZSESSION (ZSTART COLLATE BINARY DESC)"))
        #expect(statements.contains("CREATE INDEX Z_1ASSETS_Z_2ASSETS_INDEX ON Z_1ASSETS (Z_2ASSETS, Z_1ALBUMS)"))
    }
}

import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Values of attributes allowing external storage live out of their rows, uncompressed, in
/// the table's TOAST table (`STORAGE EXTERNAL`); other binary attributes keep PostgreSQL's
/// default, which compresses a long value before moving it out.
@Suite struct PostgresExternalStorageTests {
    static let model = ManagedObjectModel {
        EntityDescription("Scan") {
            AttributeDescription("name", .string)
            AttributeDescription("image", .binary).externallyStored()
            AttributeDescription("thumbnail", .binary)
        }
    }

    /// 300 000 bytes that compress well, so that compression would show.
    static let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 64) })

    @Test func anAttributeAllowingExternalStorageIsKeptOutOfTheRowUncompressed() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("external"))
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
        let store = try coordinator.addStore(type: StoreType.postgres.name, at: url)
        #expect(store.capabilities.contains(.externalBinaryStorage))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let scan = try context.insertNewObject(forEntityName: "Scan")
            try scan.setValue(.string("first"), forKey: "name")
            try scan.setValue(.binary(Self.large), forKey: "image")
            try scan.setValue(.binary(Self.large), forKey: "thumbnail")
            try context.save()
        }

        let location = try PostgresLocation(url: url)
        let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        let qualified = PostgresIdentifier.quoted(location.schema) + "." + PostgresIdentifier.quoted("Scan")
        let table = "'\(qualified)'::regclass"
        let storage = try connection.execute(
            "SELECT attname::text || ' ' || attstorage::text FROM pg_attribute WHERE attrelid = \(table) "
                + "AND attname IN ('image', 'thumbnail') ORDER BY attname")
        let storageByColumn = (0..<storage.rowCount).map { row in
            String(decoding: storage.bytes(row, 0) ?? [], as: UTF8.self)
        }
        #expect(storageByColumn == ["image e", "thumbnail x"])

        let sizes = try connection.execute(
            "SELECT pg_column_size(image), pg_column_size(thumbnail), octet_length(image) FROM \(qualified)")
        let (image, thumbnail, length) = (sizes.int64(0, 0), sizes.int64(0, 1), sizes.int64(0, 2))
        #expect(length == 300_000)
        #expect(image == 300_000, "The image is kept uncompressed.")
        #expect((thumbnail ?? .max) < 100_000, "The thumbnail is compressed, as PostgreSQL does by default.")

        let relations = try connection.execute(
            "SELECT pg_relation_size(\(table)), pg_relation_size(reltoastrelid) FROM pg_class WHERE oid = \(table)")
        let (heap, toast) = (relations.int64(0, 0) ?? .max, relations.int64(0, 1) ?? 0)
        #expect(heap <= 8_192, "The row holds a pointer, not the value: the table has \(heap) bytes.")
        #expect(toast >= 300_000, "The TOAST table holds the value: \(toast) bytes.")

        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            let scan = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Scan")).first)
            #expect(try scan.value(forKey: "image") == .binary(Self.large))
        }
    }
}

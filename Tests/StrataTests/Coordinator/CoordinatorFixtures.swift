import Foundation
import Strata

/// The model and sample objects the coordinator tests share.
enum CoordinatorFixtures {
    /// Authors, books (with a comic sub-entity) and series with an ordered list of volumes in
    /// configuration "Library"; notes in configuration "Scratch".
    static func model() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                AttributeDescription("born", .date)
                AttributeDescription("id", .uuid)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                AttributeDescription("price", .decimal)
                AttributeDescription("cover", .binary)
                AttributeDescription("inPrint", .boolean)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                RelationshipDescription.toOne("series", destination: "Series", inverse: "volumes")
            }
            EntityDescription("Comic", parent: "Book") { AttributeDescription("artist", .string) }
            EntityDescription("Series") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("volumes", destination: "Book", inverse: "series", ordered: true)
            }
            EntityDescription("Note") { AttributeDescription("text", .string) }
            ConfigurationDescription("Library", entities: ["Author", "Book", "Comic", "Series"])
            ConfigurationDescription("Scratch", entities: ["Note"])
        }
        try model.freeze()
        return model
    }

    /// Saves two authors, three books and a comic, and a series whose volumes are not in
    /// alphabetical order, into `store`, plus a note when the store holds notes. IDs handed
    /// out first and never used leave a gap, so the objects' references do not start at 1.
    /// Returns the number of objects saved.
    @discardableResult
    static func fill(_ store: any IncrementalStore) throws -> Int {
        _ = try store.permanentIDs(forEntities: ["Author", "Author", "Author"])
        let ids = try store.permanentIDs(forEntities: ["Author", "Author", "Series", "Book", "Book", "Book", "Comic"])
        let (ada, bo, saga) = (ids[0], ids[1], ids[2])
        let (zeta, alpha, mango, kite) = (ids[3], ids[4], ids[5], ids[6])
        func book(
            _ id: ObjectID, _ title: String, pages: Int32, author: ObjectID, series: ObjectID?,
            extra: [String: AttributeValue] = [:]
        ) -> StoreChangeSet.ObjectChange {
            let values: [String: AttributeValue] = [
                "title": .string(title), "pages": .integer32(pages), "price": .decimal(Decimal(string: "12.50")!),
                "cover": .binary(Data([0, 1, 2, UInt8(pages % 256)])), "inPrint": .boolean(pages > 100),
                "author": .objectID(author), "series": series.map(AttributeValue.objectID) ?? .null,
            ]
            return .init(objectID: id, values: values.merging(extra) { _, new in new }, expectedVersion: 0)
        }
        var inserts: [StoreChangeSet.ObjectChange] = [
            .init(
                objectID: ada,
                values: [
                    "name": "Ada", "born": .date(Date(timeIntervalSinceReferenceDate: -4_000_000_000)),
                    "id": .uuid(UUID(uuidString: "6E1C6A57-7A6B-4B8C-9B53-2E1C2D0B7A11")!),
                ],
                toManyRelationships: ["books": [zeta, alpha, kite]], expectedVersion: 0),
            .init(
                objectID: bo, values: ["name": "Bo", "born": .null, "id": .null],
                toManyRelationships: ["books": [mango]], expectedVersion: 0),
            .init(
                objectID: saga, values: ["name": "Saga"], toManyRelationships: ["volumes": [zeta, kite, alpha]],
                expectedVersion: 0),
            book(zeta, "Zeta", pages: 320, author: ada, series: saga),
            book(alpha, "Alpha", pages: 90, author: ada, series: saga),
            book(mango, "Mango", pages: 150, author: bo, series: nil),
            book(kite, "Kite", pages: 40, author: ada, series: saga, extra: ["artist": "Kim"]),
        ]
        if store.configurationName != "Library" {
            let note = try store.permanentIDs(forEntities: ["Note"])[0]
            inserts.append(.init(objectID: note, values: ["text": "Remember the milk."], expectedVersion: 0))
        }
        try store.save(StoreChangeSet(inserted: inserts))
        return inserts.count
    }

    /// One object as the tests compare it across stores: references are replaced by the
    /// label of the object they point at, since migration gives objects new IDs.
    struct ObjectContent: Hashable {
        var entityName: String
        var attributes: [String: AttributeValue]
        var toOne: [String: String]
        var toMany: [String: [String]]
    }

    /// Every object of `store`, by label (entity and name, title or text). Unordered to-many
    /// members are sorted; ordered ones keep the store's order.
    static func contents(of store: any IncrementalStore, model: ManagedObjectModel) throws -> [String: ObjectContent] {
        var snapshots: [Snapshot] = []
        for name in model.entityNames(inConfiguration: store.configurationName) {
            let request = StoreFetchRequest(entityName: name, includesSubentities: false)
            guard case .snapshots(let found) = try store.execute(request) else { return [:] }
            snapshots += found
        }
        func label(_ snapshot: Snapshot) -> String {
            let name = ["name", "title", "text"].lazy.compactMap { snapshot.values[$0]?.get(String.self) }.first
            return "\(snapshot.objectID.entityName) \(name ?? "?")"
        }
        let labels = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.objectID, label($0)) })
        func labelled(_ id: ObjectID) -> String { labels[id] ?? "missing \(id)" }
        var contents: [String: ObjectContent] = [:]
        for snapshot in snapshots {
            let entity = model.schema.entitiesByName[snapshot.objectID.entityName]!
            var content = ObjectContent(
                entityName: entity.name, attributes: [:], toOne: [:], toMany: [:])
            for (key, value) in snapshot.values {
                if case .objectID(let id) = value {
                    content.toOne[key] = labelled(id)
                } else {
                    content.attributes[key] = value
                }
            }
            for relationship in entity.relationships where relationship.isToMany {
                let members = try store.relatedObjectIDs(of: snapshot.objectID, relationship: relationship.name)
                    .map(labelled)
                content.toMany[relationship.name] = relationship.isOrdered ? members : members.sorted()
            }
            contents[label(snapshot)] = content
        }
        return contents
    }
}

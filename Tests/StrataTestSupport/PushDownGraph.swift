import Foundation
import Strata

/// People, teams and tags whose values cover what predicates translate differently from the
/// evaluator (nulls, NaN, `-0.0`, accents in both normal forms, case, a sub-entity): what a
/// store's push-down tests save in the store and in an in-memory store with the same
/// identifier, to compare a fetch's answer from the store's query language with the
/// evaluator's.
public enum PushDownGraph {
    public static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                AttributeDescription("age", .integer32)
                AttributeDescription("score", .double)
                AttributeDescription("born", .date)
                AttributeDescription("active", .boolean)
                AttributeDescription("photo", .binary)
                RelationshipDescription.toOne("team", destination: "Team", inverse: "members")
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "people")
            }
            EntityDescription("Manager", parent: "Person") { AttributeDescription("level", .integer16) }
            EntityDescription("Team") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("members", destination: "Person", inverse: "team", ordered: true)
                RelationshipDescription.toOne("parent", destination: "Team", inverse: "children")
                RelationshipDescription.toMany("children", destination: "Team", inverse: "parent")
            }
            EntityDescription("Tag") {
                AttributeDescription("label", .string)
                RelationshipDescription.toMany("people", destination: "Person", inverse: "tags")
            }
        }
        try! model.freeze()
        return model
    }()

    /// Three teams (one inside another), four tags and ten people of varied values, nulls,
    /// NaN, `-0.0`, accents in both normal forms and case, and a manager.
    public static func changeSet(ids store: any IncrementalStore) throws -> StoreChangeSet {
        let names = [
            "Ana", "anabel", "Bob", "CAFÉ", "cafe\u{301}", "Ødegaard", "straße", "Zoë", "", "emoji 🎉",
        ]
        let people = try store.permanentIDs(forEntities: Array(repeating: "Person", count: 9) + ["Manager"])
        let teams = try store.permanentIDs(forEntities: ["Team", "Team", "Team"])
        let tags = try store.permanentIDs(forEntities: ["Tag", "Tag", "Tag", "Tag"])
        let scores: [AttributeValue] = [
            .double(1.5), .double(-0.0), .double(.nan), .double(0), .null, .double(.infinity), .double(2.25),
            .double(-3), .double(1.5), .double(100),
        ]
        var inserted: [StoreChangeSet.ObjectChange] = []
        var members: [[ObjectID]] = [[], [], []]
        var tagged: [[ObjectID]] = [[], [], [], []]
        for (index, id) in people.enumerated() {
            let team = index % 4 == 3 ? nil : index % 3
            if let team { members[team].append(id) }
            let personTags = tags.enumerated().filter { (index + $0.offset) % 3 == 0 }
            for tag in personTags { tagged[tag.offset].append(id) }
            var values: [String: AttributeValue] = [
                "name": index == 8 ? .null : .string(names[index]),
                "age": index == 5 ? .null : .integer32(Int32(20 + index * 3 % 17)),
                "score": scores[index],
                "born": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.25 - 400_000)),
                "active": index % 2 == 0 ? .boolean(true) : .boolean(false),
                "photo": .binary(Data([UInt8(index), 0, 255])),
                "team": team.map { .objectID(teams[$0]) } ?? .null,
            ]
            if id.entityName == "Manager" { values["level"] = .integer16(3) }
            inserted.append(
                .init(
                    objectID: id, values: values, toManyRelationships: ["tags": personTags.map(\.element)],
                    expectedVersion: 0))
        }
        for (index, id) in teams.enumerated() {
            inserted.append(
                .init(
                    objectID: id,
                    values: [
                        "name": .string(["Red", "blue", "Green"][index]),
                        "parent": index == 2 ? .objectID(teams[0]) : .null,
                    ],
                    toManyRelationships: ["members": members[index], "children": index == 0 ? [teams[2]] : []],
                    expectedVersion: 0))
        }
        for (index, id) in tags.enumerated() {
            inserted.append(
                .init(
                    objectID: id, values: ["label": .string(["x", "y", "z", "w"][index])],
                    toManyRelationships: ["people": tagged[index]], expectedVersion: 0))
        }
        return StoreChangeSet(inserted: inserted)
    }
}

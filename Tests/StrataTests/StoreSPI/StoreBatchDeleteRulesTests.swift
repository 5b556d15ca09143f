import Strata
import Testing

/// The helpers a store carrying out batch deletions uses: denials and nullified objects grouped
/// by object, and the relationships of one delete rule.
@Suite struct StoreBatchDeleteRulesTests {
    private static func id(_ number: Int64, _ entity: String = "Desk") -> ObjectID {
        ObjectID(storeIdentifier: "S", entityName: entity, reference: .integer(number))
    }

    @Test func denialsNameEachDeletedObjectsFirstDestinationAndCount() {
        let pairs = [
            (Self.id(1), Self.id(10, "Key")), (Self.id(1), Self.id(11, "Key")), (Self.id(2), Self.id(12, "Key")),
        ]
        #expect(
            StoreBatchDeleteResult.Denial.grouping(pairs.map { ($0.0, $0.1) }, relationship: "keys") == [
                .init(objectID: Self.id(1), relationship: "keys", destination: Self.id(10, "Key"), remainingCount: 2),
                .init(objectID: Self.id(2), relationship: "keys", destination: Self.id(12, "Key"), remainingCount: 1),
            ])
        #expect(StoreBatchDeleteResult.Denial.grouping([], relationship: "keys").isEmpty)
    }

    @Test func nullifiedObjectsGatherTheirRelationships() {
        let rows = [(Self.id(1), "office"), (Self.id(1), "teams"), (Self.id(2), "office")]
        #expect(
            NullifiedObject.grouping(rows.map { ($0.0, $0.1) }) == [
                NullifiedObject(objectID: Self.id(1), relationships: ["office", "teams"]),
                NullifiedObject(objectID: Self.id(2), relationships: ["office"]),
            ])
    }

    @Test func relationshipsOfOneDeleteRuleComeInTheEntitiesOrder() throws {
        let model = ManagedObjectModel {
            EntityDescription("Office") {
                RelationshipDescription.toMany("desks", destination: "Desk", inverse: "office", deleteRule: .cascade)
                RelationshipDescription.toMany("staff", destination: "Desk", inverse: "boss")
            }
            EntityDescription("Desk") {
                RelationshipDescription.toOne("office", destination: "Office", inverse: "desks")
                RelationshipDescription.toOne("boss", destination: "Office", inverse: "staff")
            }
        }
        try model.freeze()
        let cascades = model.schema.relationships(of: ["Office", "Desk"], withDeleteRule: .cascade)
        #expect(cascades.map { "\($0.entity.name).\($0.relationship.name)" } == ["Office.desks"])
        let nullifies = model.schema.relationships(of: ["Desk", "Office"], withDeleteRule: .nullify)
        #expect(
            nullifies.map { "\($0.entity.name).\($0.relationship.name)" } == [
                "Desk.office", "Desk.boss", "Office.staff",
            ])
    }
}

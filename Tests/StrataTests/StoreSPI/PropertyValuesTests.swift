import Foundation
import Testing

@testable import Strata

@Suite struct PropertyValuesTests {
    let car: EntitySchema

    init() throws {
        let model = SampleModels.garage()
        try model.freeze()
        car = try #require(model.schema.entitiesByName["Car"])
    }

    @Test func slotsListPersistentAttributesThenToOnesInheritedFirst() throws {
        #expect(car.slotNames == ["numberPlate", "built", "seats", "price", "owner"])
        #expect(car.persistentSlotCount == 5)
        #expect(car.slot(of: "owner") == 4 && car.slot(of: "seats") == 2 && car.slot(of: "nothing") == nil)
        let model = SampleModels.garage()
        try model.freeze()
        let person = try #require(model.schema.entitiesByName["Person"])
        #expect(person.slotNames.last == "mood" && person.persistentSlotCount == person.slotNames.count - 1)
        #expect(person.slot(of: "cars") == nil)
    }

    @Test func valuesBySlotReadAndCompareAsValuesByName() {
        let owner = ObjectID(storeIdentifier: "S", entityName: "Person", reference: .integer(3))
        let slotted = PropertyValues(
            entity: car, slots: ["AB-12", .null, .integer16(4), .null, .objectID(owner)])
        let named = PropertyValues([
            "numberPlate": "AB-12", "built": .null, "seats": .integer16(4), "price": .null, "owner": .objectID(owner),
        ])
        #expect(slotted["seats"] == .integer16(4) && slotted["owner"] == .objectID(owner) && slotted["color"] == nil)
        #expect(slotted.count == 5 && slotted.keys == car.slotNames)
        #expect(slotted == named && slotted.hashValue == named.hashValue)
        #expect(slotted.dictionary == named.dictionary)
        #expect(slotted.slots(for: car) != nil && named.slots(for: car) == nil)
        #expect(slotted.entity === car && named.entity == nil)
        #expect(Array(slotted.map(\.key)) == car.slotNames)
    }

    @Test func writingAKnownKeyKeepsSlotsAndAnyOtherWriteTurnsThemIntoNames() {
        var values = PropertyValues(entity: car, slots: ["AB-12", .null, .integer16(4), .null, .null])
        values["seats"] = .integer16(2)
        #expect(values.slots(for: car)?[2] == .integer16(2))
        var other = values
        other["color"] = "red"
        #expect(other.slots(for: car) == nil && other["color"] == "red" && other["seats"] == .integer16(2))
        other = values
        other["built"] = nil
        #expect(other.slots(for: car) == nil && other.count == 4 && other["built"] == nil)
        #expect(values.slots(for: car)?[2] == .integer16(2), "a copy's writes leave the original alone")
    }

    @Test func mappingKeepsTheForm() {
        let values = PropertyValues(entity: car, slots: ["AB-12", .null, .integer16(4), .null, .null])
        let mapped = values.mapValues { $0 == .integer16(4) ? .integer16(5) : $0 }
        #expect(mapped.slots(for: car)?[2] == .integer16(5))
        let named: PropertyValues = ["seats": .integer16(4)]
        #expect(named.mapValues { _ in .null } == ["seats": .null])
    }

    @Test func snapshotsOfEitherFormAreEqualWhenTheirValuesAre() {
        let id = ObjectID(storeIdentifier: "S", entityName: "Car", reference: .integer(1))
        let slots: [AttributeValue] = ["AB-12", .null, .integer16(4), .null, .null]
        let bySlot = Snapshot(objectID: id, values: PropertyValues(entity: car, slots: slots), version: 2)
        let byName = Snapshot(
            objectID: id,
            values: ["numberPlate": "AB-12", "built": .null, "seats": .integer16(4), "price": .null, "owner": .null],
            version: 2)
        #expect(bySlot == byName)
        #expect(Set([bySlot, byName]).count == 1)
    }

    @Test func valuesByNameMoveIntoSlotsOnlyWhenTheyAreExactlyTheEntitysPersistentValues() {
        let owner = ObjectID(storeIdentifier: "S", entityName: "Person", reference: .integer(3))
        let named = PropertyValues([
            "numberPlate": "AB-12", "built": .null, "seats": .integer16(4), "price": .null, "owner": .objectID(owner),
        ])
        let moved = named.bySlots(of: car)
        #expect(moved == named && moved.slots(for: car)?[car.slot(of: "seats") ?? 0] == .integer16(4))
        var missing = named
        missing["price"] = nil
        #expect(missing.bySlots(of: car).slots(for: car) == nil && missing.bySlots(of: car) == missing)
        var unknown = missing
        unknown["colour"] = "red"
        #expect(unknown.bySlots(of: car).slots(for: car) == nil)
    }
}

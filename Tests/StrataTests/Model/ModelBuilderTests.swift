import Foundation
import Testing

@testable import Strata

@Suite struct ModelBuilderTests {
    @Test func builderProducesTheDescribedModel() throws {
        let model = SampleModels.garage()
        #expect(model.entities.map(\.name) == ["Vehicle", "Car", "Person"])
        #expect(model.versionIdentifiers == ["2"])
        #expect(model.configurations == ["Garage": ["Vehicle", "Car", "Person"]])
        #expect(model.fetchRequestTemplate(named: "byName")?.predicateFormat == "name == $NAME")

        let vehicle = try #require(model.entity(named: "Vehicle"))
        #expect(vehicle.isAbstract)
        #expect(vehicle.uniquenessConstraints == [["numberPlate"]])
        let plate = try #require(vehicle.attribute(named: "numberPlate"))
        #expect(!plate.isOptional && plate.minLength == 1 && plate.maxLength == 12 && plate.minValue == nil)

        let car = try #require(model.entity(named: "Car"))
        #expect(car.superentityName == "Vehicle")
        let seats = try #require(car.attribute(named: "seats"))
        #expect(
            seats.defaultValue == .integer16(4) && seats.minValue == .integer64(1) && seats.maxValue == .integer64(9))
        #expect(car.fetchIndexes.map(\.name) == ["bySeats"])
        let owner = try #require(car.relationship(named: "owner"))
        #expect(!owner.isToMany && owner.maxCount == 1 && owner.inverseName == "cars")

        let person = try #require(model.entity(named: "Person"))
        #expect(person.attribute(named: "name")?.regularExpression == "[A-Za-z ]+")
        #expect(person.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
        #expect(person.attribute(named: "mood")?.isTransient == true)
        #expect(person.relationship(named: "cars")?.deleteRule == .cascade)
        #expect(person.fetchedProperties.map(\.name) == ["bigCars"])
    }

    @Test func everyAttributeTypeAndOptionIsExpressible() throws {
        let types: [AttributeType] = [
            .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid,
            .uri, .transformable,
        ]
        let model = ManagedObjectModel {
            EntityDescription("All") {
                for type in types {
                    AttributeDescription("a\(type.rawValue)", type)
                        .indexed()
                        .preservedAfterDeletion()
                        .renamed(from: "old\(type.rawValue)")
                        .versionHashModifier("m")
                        .transformed(by: "T")
                }
            }
        }
        let all = try #require(model.entity(named: "All"))
        #expect(all.attributes.map(\.type) == types)
        for attribute in all.attributes {
            #expect(attribute.isIndexed && attribute.preservesValueInHistoryOnDeletion)
            #expect(attribute.renamingIdentifier == "old\(attribute.type.rawValue)")
            #expect(attribute.versionHashModifier == "m" && attribute.valueTransformerName == "T")
        }
        try model.freeze()
    }

    @Test func relationshipFactoriesSetCoreDataCounts() {
        let toOne = RelationshipDescription.toOne("a", destination: "B", isOptional: false)
        #expect(toOne.minCount == 1 && toOne.maxCount == 1 && !toOne.isToMany)
        let toMany = RelationshipDescription.toMany("a", destination: "B", ordered: true, minCount: 1, maxCount: 3)
        #expect(toMany.isToMany && toMany.isOrdered && toMany.minCount == 1 && toMany.maxCount == 3)
        #expect(toMany.renamed(from: "old").renamingIdentifier == "old")
        #expect(toMany.transient().isTransient)
    }
}

import Foundation
import Testing

@testable import Strata

@Suite struct ManagedObjectModelValidationTests {
    /// Freezes `model` and returns the issues of the error it must throw.
    private func issues(_ model: ManagedObjectModel) -> [ModelIssue] {
        do {
            try model.freeze()
            Issue.record("The model froze, but it is invalid.")
            return []
        } catch {
            #expect(error.code == .invalidModel)
            #expect(!model.isFrozen)
            return error.issues
        }
    }

    private func expectSingle(
        _ kind: ModelIssue.Kind, entity: String?, property: String? = nil, mentioning text: String,
        in model: ManagedObjectModel
    ) {
        let found = issues(model)
        #expect(found.count == 1, "\(found)")
        guard let issue = found.first else { return }
        #expect(issue.kind == kind)
        #expect(issue.entityName == entity)
        #expect(issue.propertyName == property)
        #expect(issue.message.contains(text), "\(issue.message)")
    }

    @Test func validModelFreezes() throws {
        let model = SampleModels.garage()
        #expect(model.validationIssues().isEmpty)
        try model.freeze()
        #expect(model.isFrozen)
        try model.freeze()
    }

    @Test func duplicateEntity() {
        let model = ManagedObjectModel {
            Entity("A")
            Entity("A")
        }
        expectSingle(.duplicateEntity, entity: "A", mentioning: "'A' is declared twice", in: model)
    }

    @Test func emptyEntityName() {
        expectSingle(.emptyName, entity: nil, mentioning: "empty name", in: ManagedObjectModel { Entity("") })
    }

    @Test func duplicateProperty() {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .string)
                Relationship.toOne("x", destination: "A")
            }
        }
        expectSingle(
            .duplicateProperty, entity: "A", property: "x", mentioning: "declares property 'x' twice", in: model)
    }

    @Test func propertyShadowingAnInheritedOne() {
        let model = ManagedObjectModel {
            Entity("A") { Attribute("x", .string) }
            Entity("B", parent: "A") { Attribute("x", .integer16) }
        }
        expectSingle(.shadowedProperty, entity: "B", property: "x", mentioning: "'B.x' shadows", in: model)
    }

    @Test func invalidPropertyName() {
        let model = ManagedObjectModel { Entity("A") { Attribute("a.b", .string) } }
        expectSingle(.invalidName, entity: "A", property: "a.b", mentioning: "'A.a.b'", in: model)
    }

    @Test func unknownSuperentity() {
        let model = ManagedObjectModel { Entity("B", parent: "Nope") }
        expectSingle(.unknownSuperentity, entity: "B", mentioning: "unknown entity 'Nope'", in: model)
    }

    @Test func inheritanceCycle() {
        let model = ManagedObjectModel {
            Entity("A", parent: "B")
            Entity("B", parent: "A")
        }
        let found = issues(model)
        #expect(Set(found.map(\.kind)) == [.inheritanceCycle])
        #expect(Set(found.compactMap(\.entityName)) == ["A", "B"])
    }

    @Test func unknownDestination() {
        let model = ManagedObjectModel { Entity("A") { Relationship.toOne("b", destination: "Ghost") } }
        expectSingle(.unknownDestination, entity: "A", property: "b", mentioning: "unknown entity 'Ghost'", in: model)
    }

    @Test func inverseThatIsNotARelationship() {
        let model = ManagedObjectModel {
            Entity("A") { Relationship.toOne("b", destination: "B", inverse: "missing") }
            Entity("B")
        }
        expectSingle(.unknownInverse, entity: "A", property: "b", mentioning: "'missing'", in: model)
    }

    @Test func inverseThatDoesNotPointBack() {
        let model = ManagedObjectModel {
            Entity("A") {
                Relationship.toOne("b", destination: "B", inverse: "a")
                Relationship.toOne("other", destination: "B")
            }
            Entity("B") { Relationship.toMany("a", destination: "A", inverse: "other") }
        }
        let found = issues(model)
        #expect(found.map(\.kind) == [.inverseMismatch, .inverseMismatch], "\(found)")
        #expect(found.first?.message.contains("does not point back at 'A.b'") == true)
    }

    @Test func inverseOnASuperentityIsAccepted() throws {
        let model = ManagedObjectModel {
            Entity("Base") { Relationship.toMany("tags", destination: "Tag", inverse: "owner") }
            Entity("Sub", parent: "Base")
            Entity("Tag") { Relationship.toOne("owner", destination: "Base", inverse: "tags") }
        }
        try model.freeze()
    }

    @Test func invalidCountsAndOrderedToOne() {
        var bad = Relationship.toMany("b", destination: "A", minCount: 5, maxCount: 2)
        let model = ManagedObjectModel { Entity("A") { bad } }
        expectSingle(.invalidCount, entity: "A", property: "b", mentioning: "min 5, max 2", in: model)
        bad = Relationship.toOne("b", destination: "A")
        bad.isOrdered = true
        let ordered = ManagedObjectModel { Entity("A") { bad } }
        expectSingle(.orderedToOne, entity: "A", property: "b", mentioning: "ordered but to-one", in: ordered)
    }

    @Test func defaultValueOfTheWrongType() {
        let model = ManagedObjectModel { Entity("A") { Attribute("n", .integer16, default: .string("x")) } }
        expectSingle(.defaultValueType, entity: "A", property: "n", mentioning: "Integer 16", in: model)
        let text = ManagedObjectModel { Entity("A") { Attribute("s", .string, default: 3) } }
        expectSingle(.defaultValueType, entity: "A", property: "s", mentioning: "not a String value", in: text)
        let overflow = ManagedObjectModel { Entity("A") { Attribute("n", .integer16, default: .integer64(70_000)) } }
        expectSingle(.defaultValueType, entity: "A", property: "n", mentioning: "'A.n'", in: overflow)
    }

    @Test func boundsThatDoNotFit() {
        let reversed = ManagedObjectModel { Entity("A") { Attribute("n", .double, min: 5, max: 1) } }
        expectSingle(.invalidBounds, entity: "A", property: "n", mentioning: "larger than its maximum", in: reversed)
        let lengths = ManagedObjectModel { Entity("A") { Attribute("s", .string, min: 9, max: 2) } }
        expectSingle(.invalidBounds, entity: "A", property: "s", mentioning: "out of order", in: lengths)
        var onBool = Attribute("b", .boolean)
        onBool.maxLength = 3
        let misplaced = ManagedObjectModel { Entity("A") { onBool } }
        expectSingle(.invalidBounds, entity: "A", property: "b", mentioning: "only to String and Binary", in: misplaced)
    }

    @Test func regularExpressionThatDoesNotCompile() {
        let model = ManagedObjectModel { Entity("A") { Attribute("s", .string).matching("(unclosed") } }
        expectSingle(.invalidRegularExpression, entity: "A", property: "s", mentioning: "does not compile", in: model)
    }

    @Test func transformableWithoutTransformer() {
        let model = ManagedObjectModel { Entity("A") { Attribute("t", .transformable) } }
        expectSingle(
            .missingTransformer, entity: "A", property: "t", mentioning: "names no value transformer", in: model)
    }

    @Test func constraintOnUnknownProperty() {
        let model = ManagedObjectModel { Entity("A") { Unique("ghost") } }
        expectSingle(.unknownConstraintProperty, entity: "A", property: "ghost", mentioning: "'ghost'", in: model)
    }

    @Test func indexOnUnknownProperty() {
        let model = ManagedObjectModel {
            Entity("A") { FetchIndex(name: "i", elements: [.init(propertyName: "ghost")]) }
        }
        expectSingle(.unknownIndexProperty, entity: "A", property: "i", mentioning: "'ghost'", in: model)
    }

    @Test func indexMixingKindsAndBadRTree() {
        let mixed = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .double, optional: false)
                Attribute("y", .double, optional: false)
                FetchIndex(name: "i", elements: [.init(propertyName: "x"), .init(propertyName: "y", kind: .rTree)])
            }
        }
        expectSingle(.mixedIndexKinds, entity: "A", property: "i", mentioning: "mixes binary and R-tree", in: mixed)
        let optional = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .double)
                FetchIndex(name: "r", elements: [.init(propertyName: "x", kind: .rTree)])
            }
        }
        expectSingle(.invalidRTreeElement, entity: "A", property: "r", mentioning: "non-optional numeric", in: optional)
        let text = ManagedObjectModel {
            Entity("A") {
                Attribute("s", .string, optional: false)
                FetchIndex(name: "r", elements: [.init(propertyName: "s", kind: .rTree)])
            }
        }
        expectSingle(.invalidRTreeElement, entity: "A", property: "r", mentioning: "'s' is not one", in: text)
    }

    @Test func emptyAndDuplicateIndexes() {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .string)
                FetchIndex(name: "i", elements: [])
                FetchIndex(name: "j", elements: [.init(propertyName: "x")])
                FetchIndex(name: "j", elements: [.init(propertyName: "x")])
            }
        }
        #expect(issues(model).map(\.kind) == [.emptyIndex, .duplicateIndex])
    }

    @Test func configurationAndTemplateNamingUnknownEntities() {
        let model = ManagedObjectModel {
            Entity("A")
            Configuration("Cloud", entities: ["A", "Ghost"])
            FetchRequestTemplate(name: "t", entityName: "Phantom")
        }
        let found = issues(model)
        #expect(found.map(\.kind) == [.unknownConfigurationEntity, .unknownTemplateEntity])
        #expect(found.map(\.entityName) == ["Ghost", "Phantom"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        let model = ManagedObjectModel {
            Entity("A") {
                Relationship.toOne("b", destination: "Ghost")
                Unique("nothing")
            }
            Entity("A")
        }
        #expect(issues(model).count == 3)
    }
}

@Suite struct AttributeTypeCoercionTests {
    @Test func coercionKeepsNumbersExactly() {
        #expect(AttributeType.integer16.coerce(.integer64(4)) == .integer16(4))
        #expect(AttributeType.integer16.coerce(.integer64(70_000)) == nil)
        #expect(AttributeType.double.coerce(.integer64(9_007_199_254_740_993)) == nil)
        #expect(AttributeType.double.coerce(.integer64(9_007_199_254_740_992)) == .double(9_007_199_254_740_992))
        #expect(AttributeType.float.coerce(.double(0.1)) == .float(0.1))
        #expect(AttributeType.integer32.coerce(.boolean(true)) == nil)
        #expect(AttributeType.boolean.coerce(.integer64(1)) == .boolean(true))
        #expect(AttributeType.string.coerce(.integer64(1)) == nil)
        #expect(AttributeType.transformable.accepts(.binary(Data([1]))))
        #expect(AttributeType.decimal.coerce(.null) == .null)
    }
}

@Suite struct AttributeBoundValidationTests {
    @Test func negativeLengthsAndNonIntegerLengthBoundsAreReported() {
        var negative = Attribute("s", .string)
        negative.maxLength = -1
        #expect(
            ManagedObjectModel { Entity("A") { negative } }.validationIssues().map(\.message) == [
                "Length bounds of 'A.s' may not be negative."
            ])
        let textual = ManagedObjectModel { Entity("A") { Attribute("s", .string, min: "x") } }
        #expect(textual.validationIssues().map(\.kind) == [.invalidBounds])
    }
}

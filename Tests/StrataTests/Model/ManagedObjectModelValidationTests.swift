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
            EntityDescription("A")
            EntityDescription("A")
        }
        expectSingle(.duplicateEntity, entity: "A", mentioning: "'A' is declared twice", in: model)
    }

    @Test func emptyEntityName() {
        expectSingle(
            .emptyName, entity: nil, mentioning: "empty name", in: ManagedObjectModel { EntityDescription("") })
    }

    @Test func duplicateProperty() {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("x", .string)
                RelationshipDescription.toOne("x", destination: "A")
            }
        }
        expectSingle(
            .duplicateProperty, entity: "A", property: "x", mentioning: "declares property 'x' twice", in: model)
    }

    @Test func propertyShadowingAnInheritedOne() {
        let model = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("x", .string) }
            EntityDescription("B", parent: "A") { AttributeDescription("x", .integer16) }
        }
        expectSingle(.shadowedProperty, entity: "B", property: "x", mentioning: "'B.x' shadows", in: model)
    }

    @Test(arguments: ["a.b", "@count", "two words", #"na"me');DROP_TABLE;--"#, "1st", "a-b"])
    func invalidPropertyName(name: String) {
        let model = ManagedObjectModel { EntityDescription("A") { AttributeDescription(name, .string) } }
        expectSingle(.invalidName, entity: "A", property: name, mentioning: "'A.\(name)'", in: model)
    }

    /// Entity names are identifiers too: stores name tables, elements and keys after them.
    @Test(arguments: [#"Evil"Entity');DROP_TABLE_Z_METADATA;--"#, "9Lives", "City Hall", "a/b"])
    func invalidEntityName(name: String) {
        let model = ManagedObjectModel { EntityDescription(name) { AttributeDescription("x", .string) } }
        expectSingle(.invalidName, entity: name, mentioning: "'\(name)'", in: model)
    }

    @Test func identifiersInAnyScriptAreValid() {
        let model = ManagedObjectModel {
            EntityDescription("Straße_2") { AttributeDescription("größe", .integer64) }
            EntityDescription("都市") { AttributeDescription("名前", .string) }
        }
        #expect(model.validationIssues().isEmpty)
    }

    @Test func unknownSuperentity() {
        let model = ManagedObjectModel { EntityDescription("B", parent: "Nope") }
        expectSingle(.unknownSuperentity, entity: "B", mentioning: "unknown entity 'Nope'", in: model)
    }

    @Test func inheritanceCycle() {
        let model = ManagedObjectModel {
            EntityDescription("A", parent: "B")
            EntityDescription("B", parent: "A")
        }
        let found = issues(model)
        #expect(Set(found.map(\.kind)) == [.inheritanceCycle])
        #expect(Set(found.compactMap(\.entityName)) == ["A", "B"])
    }

    @Test func unknownDestination() {
        let model = ManagedObjectModel {
            EntityDescription("A") { RelationshipDescription.toOne("b", destination: "Ghost") }
        }
        expectSingle(.unknownDestination, entity: "A", property: "b", mentioning: "unknown entity 'Ghost'", in: model)
    }

    @Test func inverseThatIsNotARelationship() {
        let model = ManagedObjectModel {
            EntityDescription("A") { RelationshipDescription.toOne("b", destination: "B", inverse: "missing") }
            EntityDescription("B")
        }
        expectSingle(.unknownInverse, entity: "A", property: "b", mentioning: "'missing'", in: model)
    }

    @Test func inverseThatDoesNotPointBack() {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                RelationshipDescription.toOne("b", destination: "B", inverse: "a")
                RelationshipDescription.toOne("other", destination: "B")
            }
            EntityDescription("B") { RelationshipDescription.toMany("a", destination: "A", inverse: "other") }
        }
        let found = issues(model)
        #expect(found.map(\.kind) == [.inverseMismatch, .inverseMismatch], "\(found)")
        #expect(found.first?.message.contains("does not point back at 'A.b'") == true)
    }

    @Test func inverseOnASuperentityIsAccepted() throws {
        let model = ManagedObjectModel {
            EntityDescription("Base") { RelationshipDescription.toMany("tags", destination: "Tag", inverse: "owner") }
            EntityDescription("Sub", parent: "Base")
            EntityDescription("Tag") { RelationshipDescription.toOne("owner", destination: "Base", inverse: "tags") }
        }
        try model.freeze()
    }

    @Test func invalidCountsAndOrderedToOne() {
        var bad = RelationshipDescription.toMany("b", destination: "A", minCount: 5, maxCount: 2)
        let model = ManagedObjectModel { EntityDescription("A") { bad } }
        expectSingle(.invalidCount, entity: "A", property: "b", mentioning: "min 5, max 2", in: model)
        bad = RelationshipDescription.toOne("b", destination: "A")
        bad.isOrdered = true
        let ordered = ManagedObjectModel { EntityDescription("A") { bad } }
        expectSingle(.orderedToOne, entity: "A", property: "b", mentioning: "ordered but to-one", in: ordered)
    }

    @Test func defaultValueOfTheWrongType() {
        let model = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("n", .integer16, default: .string("x")) }
        }
        expectSingle(.defaultValueType, entity: "A", property: "n", mentioning: "Integer 16", in: model)
        let text = ManagedObjectModel { EntityDescription("A") { AttributeDescription("s", .string, default: 3) } }
        expectSingle(.defaultValueType, entity: "A", property: "s", mentioning: "not a String value", in: text)
        let overflow = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("n", .integer16, default: .integer64(70_000)) }
        }
        expectSingle(.defaultValueType, entity: "A", property: "n", mentioning: "'A.n'", in: overflow)
    }

    @Test func boundsThatDoNotFit() {
        let reversed = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("n", .double, min: 5, max: 1) }
        }
        expectSingle(.invalidBounds, entity: "A", property: "n", mentioning: "larger than its maximum", in: reversed)
        let lengths = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("s", .string, min: 9, max: 2) }
        }
        expectSingle(.invalidBounds, entity: "A", property: "s", mentioning: "out of order", in: lengths)
        var onBool = AttributeDescription("b", .boolean)
        onBool.maxLength = 3
        let misplaced = ManagedObjectModel { EntityDescription("A") { onBool } }
        expectSingle(.invalidBounds, entity: "A", property: "b", mentioning: "only to String and Binary", in: misplaced)
    }

    @Test func regularExpressionThatDoesNotCompile() {
        let model = ManagedObjectModel {
            EntityDescription("A") { AttributeDescription("s", .string).matching("(unclosed") }
        }
        expectSingle(.invalidRegularExpression, entity: "A", property: "s", mentioning: "does not compile", in: model)
    }

    @Test func transformableWithoutTransformer() {
        let model = ManagedObjectModel { EntityDescription("A") { AttributeDescription("t", .transformable) } }
        expectSingle(
            .missingTransformer, entity: "A", property: "t", mentioning: "names no value transformer", in: model)
    }

    @Test func constraintOnUnknownProperty() {
        let model = ManagedObjectModel { EntityDescription("A") { UniquenessConstraint("ghost") } }
        expectSingle(.unknownConstraintProperty, entity: "A", property: "ghost", mentioning: "'ghost'", in: model)
    }

    @Test func constraintOnToManyOrTransientProperty() {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                RelationshipDescription.toMany("bs", destination: "B", inverse: "a")
                UniquenessConstraint("bs")
            }
            EntityDescription("B") { RelationshipDescription.toOne("a", destination: "A", inverse: "bs") }
        }
        expectSingle(.invalidConstraintProperty, entity: "A", property: "bs", mentioning: "to-many", in: model)
        let transient = ManagedObjectModel {
            EntityDescription("A") {
                RelationshipDescription.toOne("b", destination: "B").transient()
                UniquenessConstraint("b")
            }
            EntityDescription("B") {}
        }
        expectSingle(
            .invalidConstraintProperty, entity: "A", property: "b", mentioning: "transient relationship",
            in: transient)
    }

    @Test func indexOnUnknownProperty() {
        let model = ManagedObjectModel {
            EntityDescription("A") { FetchIndexDescription(name: "i", elements: [.init(propertyName: "ghost")]) }
        }
        expectSingle(.unknownIndexProperty, entity: "A", property: "i", mentioning: "'ghost'", in: model)
    }

    @Test func indexMixingKindsAndBadRTree() {
        let mixed = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("x", .double, optional: false)
                AttributeDescription("y", .double, optional: false)
                FetchIndexDescription(
                    name: "i", elements: [.init(propertyName: "x"), .init(propertyName: "y", kind: .rTree)])
            }
        }
        expectSingle(.mixedIndexKinds, entity: "A", property: "i", mentioning: "mixes binary and R-tree", in: mixed)
        let optional = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("x", .double)
                FetchIndexDescription(name: "r", elements: [.init(propertyName: "x", kind: .rTree)])
            }
        }
        expectSingle(.invalidRTreeElement, entity: "A", property: "r", mentioning: "non-optional numeric", in: optional)
        let text = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("s", .string, optional: false)
                FetchIndexDescription(name: "r", elements: [.init(propertyName: "s", kind: .rTree)])
            }
        }
        expectSingle(.invalidRTreeElement, entity: "A", property: "r", mentioning: "'s' is not one", in: text)
    }

    @Test func emptyAndDuplicateIndexes() {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("x", .string)
                FetchIndexDescription(name: "i", elements: [])
                FetchIndexDescription(name: "j", elements: [.init(propertyName: "x")])
                FetchIndexDescription(name: "j", elements: [.init(propertyName: "x")])
            }
        }
        #expect(issues(model).map(\.kind) == [.emptyIndex, .duplicateIndex])
    }

    @Test func configurationAndTemplateNamingUnknownEntities() {
        let model = ManagedObjectModel {
            EntityDescription("A")
            ConfigurationDescription("Cloud", entities: ["A", "Ghost"])
            FetchRequestTemplate(name: "t", entityName: "Phantom")
        }
        let found = issues(model)
        #expect(found.map(\.kind) == [.unknownConfigurationEntity, .unknownTemplateEntity])
        #expect(found.map(\.entityName) == ["Ghost", "Phantom"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                RelationshipDescription.toOne("b", destination: "Ghost")
                UniquenessConstraint("nothing")
            }
            EntityDescription("A")
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
        var negative = AttributeDescription("s", .string)
        negative.maxLength = -1
        #expect(
            ManagedObjectModel { EntityDescription("A") { negative } }.validationIssues().map(\.message) == [
                "Length bounds of 'A.s' may not be negative."
            ])
        let textual = ManagedObjectModel { EntityDescription("A") { AttributeDescription("s", .string, min: "x") } }
        #expect(textual.validationIssues().map(\.kind) == [.invalidBounds])
    }
}

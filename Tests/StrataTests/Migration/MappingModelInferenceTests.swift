import Foundation
import Testing

@testable import Strata

@Suite struct MappingModelInferenceTests {
    private func library(_ author: EntityDescription, _ more: EntityDescription...) -> ManagedObjectModel {
        ManagedObjectModel(entities: [author] + more)
    }

    private static let authorV1 = EntityDescription("Author") {
        AttributeDescription("name", .string, optional: false)
        AttributeDescription("born", .integer16)
        AttributeDescription("nickname", .string)
        RelationshipDescription.toOne("agent", destination: "Agent", inverse: "client")
    }
    private static let agentV1 = EntityDescription("Agent") {
        AttributeDescription("name", .string)
        RelationshipDescription.toOne("client", destination: "Author", inverse: "agent")
    }

    @Test func identicalModelsCopyEveryEntity() throws {
        let mapping = try MappingModel.inferred(
            from: library(Self.authorV1, Self.agentV1), to: library(Self.authorV1, Self.agentV1))
        #expect(mapping.entityMappings.map(\.kind) == [.copy, .copy])
        #expect(mapping.entityMappings.map(\.name) == ["AuthorToAuthor", "AgentToAgent"])
        let author = try #require(mapping.entityMapping(named: "AuthorToAuthor"))
        #expect(
            author.attributeMappings.map(\.valueExpression) == [.source("name"), .source("born"), .source("nickname")])
        #expect(
            author.relationshipMappings.map(\.valueExpression) == [
                .destinationInstances(forSourceRelationshipNamed: "agent", sourceInstances: .source("agent"))
            ])
    }

    @Test func attributesAddedRemovedRenamedAndRetypedAreMapped() throws {
        let authorV2 = EntityDescription("Author") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("born", .integer64)
            AttributeDescription("alias", .string).renamed(from: "nickname")
            AttributeDescription("rating", .double, optional: false, default: 3)
            RelationshipDescription.toOne("agent", destination: "Agent", inverse: "client")
        }
        let mapping = try MappingModel.inferred(
            from: library(Self.authorV1, Self.agentV1), to: library(authorV2, Self.agentV1))
        let author = try #require(mapping.entityMapping(named: "AuthorToAuthor"))
        #expect(author.kind == .transform)
        let expressions = Dictionary(
            uniqueKeysWithValues: author.attributeMappings.map { ($0.name, $0.valueExpression) })
        #expect(expressions["born"] == .some(.source("born")))
        #expect(expressions["alias"] == .some(.source("nickname")))
        #expect(expressions["rating"] == .some(nil))
        #expect(expressions["nickname"] == nil)
    }

    @Test func entitiesAddedRemovedAndRenamedAreMapped() throws {
        let writer = EntityDescription("Writer") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("born", .integer16)
            AttributeDescription("nickname", .string)
        }.renamed(from: "Author")
        let prize = EntityDescription("Prize") { AttributeDescription("title", .string) }
        let mapping = try MappingModel.inferred(from: library(Self.authorV1, Self.agentV1), to: library(writer, prize))
        #expect(mapping.entityMappings.map(\.name) == ["AuthorToWriter", "AddPrize", "RemoveAgent"])
        #expect(mapping.entityMappings.map(\.kind) == [.transform, .add, .remove])
        #expect(mapping.entityMapping(named: "AuthorToWriter")?.sourceEntityName == "Author")
        #expect(mapping.sourceEntityVersionHashes.keys.sorted() == ["Agent", "Author"])
        #expect(mapping.destinationEntityVersionHashes.keys.sorted() == ["Prize", "Writer"])
    }

    @Test func aRelationshipRenamedAndMadeToManyTakesItsOldObjects() throws {
        let authorV2 = EntityDescription("Author") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("born", .integer16)
            AttributeDescription("nickname", .string)
            RelationshipDescription.toMany("agents", destination: "Agent", inverse: "client", ordered: true)
                .renamed(from: "agent")
        }
        let agentV2 = EntityDescription("Agent") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("client", destination: "Author", inverse: "agents")
        }
        let mapping = try MappingModel.inferred(
            from: library(Self.authorV1, Self.agentV1), to: library(authorV2, agentV2))
        let author = try #require(mapping.entityMapping(named: "AuthorToAuthor"))
        #expect(author.relationshipMappings.map(\.name) == ["agents"])
        #expect(
            author.relationshipMappings.first?.valueExpression
                == .destinationInstances(forSourceRelationshipNamed: "agent", sourceInstances: .source("agent")))
    }

    @Test func aTypeItsValuesCannotBecomeIsNamedInTheError() {
        let authorV2 = EntityDescription("Author") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("born", .date)
            AttributeDescription("nickname", .string)
            RelationshipDescription.toOne("agent", destination: "Agent", inverse: "client")
        }
        let error = #expect(throws: MigrationError.self) {
            try MappingModel.inferred(from: library(Self.authorV1, Self.agentV1), to: library(authorV2, Self.agentV1))
        }
        #expect(error?.code == .cannotInferMapping)
        #expect(error?.entityName == "Author")
        #expect(error?.propertyName == "born")
        #expect(error?.message.contains("Integer 16 to Date") == true)
    }

    @Test func aRelationshipToAnUnrelatedEntityCannotBeInferred() {
        let authorV2 = EntityDescription("Author") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("born", .integer16)
            AttributeDescription("nickname", .string)
            RelationshipDescription.toOne("agent", destination: "Publisher")
        }
        let publisher = EntityDescription("Publisher") { AttributeDescription("name", .string) }
        let agentV2 = EntityDescription("Agent") { AttributeDescription("name", .string) }
        let error = #expect(throws: MigrationError.self) {
            try MappingModel.inferred(
                from: library(Self.authorV1, Self.agentV1), to: library(authorV2, agentV2, publisher))
        }
        #expect(error?.code == .cannotInferMapping)
        #expect(error?.propertyName == "agent")
    }

    @Test func anEntityMadeAbstractOrClaimedTwiceCannotBeInferred() {
        let abstractAgent = EntityDescription("Agent", abstract: true) {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("client", destination: "Author", inverse: "agent")
        }
        let madeAbstract = #expect(throws: MigrationError.self) {
            try MappingModel.inferred(
                from: library(Self.authorV1, Self.agentV1), to: library(Self.authorV1, abstractAgent))
        }
        #expect(madeAbstract?.entityName == "Agent")
        let twin = EntityDescription("Representative") { AttributeDescription("name", .string) }.renamed(from: "Agent")
        let claimedTwice = #expect(throws: MigrationError.self) {
            try MappingModel.inferred(
                from: library(Self.authorV1, Self.agentV1), to: library(Self.authorV1, Self.agentV1, twin))
        }
        #expect(claimedTwice?.code == .cannotInferMapping)
        #expect(claimedTwice?.message.contains("'Agent'") == true)
    }

    @Test func anInvalidModelIsACannotInferErrorWithTheModelErrorBeneath() {
        let broken = ManagedObjectModel(entities: [
            EntityDescription("Author") { RelationshipDescription.toOne("agent", destination: "Nobody") }
        ])
        let error = #expect(throws: MigrationError.self) {
            try MappingModel.inferred(from: library(Self.authorV1, Self.agentV1), to: broken)
        }
        #expect(error?.code == .cannotInferMapping)
        #expect(error?.underlying is ModelError)
    }
}

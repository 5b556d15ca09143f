import ArgumentParser
import Foundation
import Strata

/// The fetch request `strata query`'s options stand for, with the columns its rows print; every
/// name checked against the model and the store first.
struct QueryRequest {
    let request: FetchRequest<ManagedObject>
    let columns: [String]
    /// Whether the rows are a dictionary fetch's: groups, aggregates or distinct values.
    let isDictionaryFetch: Bool
    private let entity: EntitySchema
    private let followed: Set<String>

    init(_ query: Query, file: StoreFile, schema: ModelSchema) throws {
        let check = QueryKeyCheck(schema: schema)
        let entity = try check.entity(named: query.entity)
        self.entity = entity
        let recorded = Set(file.metadata.versionHashes.keys)
        if !recorded.isEmpty, !recorded.contains(entity.name) {
            let names = ClosestNames(candidates: Array(recorded))
            throw CommandFailure(
                description: "The \(file.typeName) store at '\(file.name)' holds no '\(entity.name)' objects: "
                    + names.suggestion(for: entity.name, kind: "entities it holds"))
        }
        var request = FetchRequest<ManagedObject>(entityName: entity.name)
        if let format = query.predicate {
            let predicate = try Self.predicate(format)
            for keyPath in predicate.keyPaths { try check.check(keyPath, from: entity, in: "the predicate") }
            request.predicate = predicate
        }
        request.sortDescriptors = try Self.list(query.sort).map { key in
            let descending = key.hasPrefix("-")
            let path = descending || key.hasPrefix("+") ? String(key.dropFirst()) : key
            try check.check(path, from: entity, in: "--sort")
            return FetchSortDescriptor(path, ascending: !descending)
        }
        request.fetchLimit = query.limit
        request.fetchOffset = query.offset
        let properties = try Self.list(query.properties)
        for key in properties { try check.check(key, from: entity, in: "--properties") }
        let followed = Set(try query.follow.map { try check.relationship(named: $0, of: entity).name })
        let groups = try Self.list(query.groupBy)
        for key in groups { try check.check(key, from: entity, in: "--group-by") }
        let aggregates = try query.aggregate.map { try Self.aggregate($0, of: entity, check: check) }
        isDictionaryFetch = query.distinct || query.groupBy != nil || !aggregates.isEmpty
        if isDictionaryFetch {
            let keys = query.groupBy == nil && aggregates.isEmpty ? properties : groups
            request.propertiesToFetch = keys
            request.propertiesToGroupBy = query.groupBy == nil ? nil : groups
            request.expressionsToFetch = aggregates
            request.returnsDistinctResults = query.distinct
            columns = keys + aggregates.map(\.name)
        } else {
            columns =
                properties.isEmpty
                ? entity.attributes.filter { !$0.isTransient }.map(\.name)
                    + entity.relationships.filter { !$0.isTransient }.map(\.name)
                : properties
        }
        self.request = request
        self.followed = followed
    }

    /// The cells of `object`'s row: each column's value; relationships by their targets' URIs,
    /// or, when followed, by their targets' attributes.
    func cells(of object: ManagedObject) throws -> [QueryCell] {
        try columns.map { key in
            guard let relationship = entity.relationshipsByName[key] else {
                return .value(try object.value(forKeyPath: key))
            }
            let targets =
                relationship.isToMany
                ? try object.objects(forKey: key) : try object.object(forKey: key).map { [$0] } ?? []
            guard followed.contains(key) else {
                return relationship.isToMany
                    ? .objects(targets.map(\.objectID.uriString)) : .object(targets.first?.objectID.uriString)
            }
            return .followed(try targets.map(Self.followed), isToMany: relationship.isToMany)
        }
    }

    private static func followed(_ object: ManagedObject) throws -> QueryCell.FollowedObject {
        QueryCell.FollowedObject(
            uri: object.objectID.uriString,
            values: try object.entity.attributes.filter { !$0.isTransient }.map {
                ($0.name, try object.value(forKey: $0.name))
            })
    }

    /// The predicate `format` stands for; a syntax error is printed with the format and a caret
    /// under the position it names.
    private static func predicate(_ format: String) throws -> FetchPredicate {
        do {
            return try FetchPredicate(format: format)
        } catch {
            guard let offset = error.offset, !format.contains(where: \.isNewline) else { throw error }
            let caret = String(repeating: " ", count: min(offset, format.count)) + "^"
            FileHandle.standardError.write(Data("strata: \(error.message)\n  \(format)\n  \(caret)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The aggregate `text` (`function:key`) names, as an expression to fetch named `text`.
    private static func aggregate(_ text: String, of entity: EntitySchema, check: QueryKeyCheck) throws
        -> ExpressionDescription
    {
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let functions = ExpressionDescription.aggregateFunctions
        guard parts.count == 2, functions.contains(parts[0]), !parts[1].isEmpty else {
            throw CommandFailure(
                description: "--aggregate '\(text)' is not function:key with the function one of "
                    + functions.sorted().joined(separator: ", ") + ".")
        }
        try check.check(parts[1], from: entity, in: "--aggregate")
        return ExpressionDescription(
            name: text, expression: .function(parts[0] + ":", [.keyPath(parts[1])]))
    }

    /// The comma-separated items of `text`, trimmed; none when `text` is `nil`.
    private static func list(_ text: String?) throws -> [String] {
        guard let text else { return [] }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw CommandFailure(description: "The list '\(text)' has an empty item.")
        }
        return items
    }
}

import Hummingbird
import Strata

/// The fetch a `GET /items` query asks for: `where` (a Core Data predicate), `sort` (keys,
/// descending with a leading `-`) and `limit`.
struct ItemQuery: Sendable {
    let request: FetchRequest<ManagedObject>

    /// Reads `parameters` for `entity`, checking every key they name before anything is read.
    ///
    /// - Throws: `HTTPError` 400 with the parser's message and position for a predicate that
    ///   does not parse, naming a key the entity does not have, or a limit that is not a
    ///   positive whole number.
    init(_ parameters: Parameters, for entity: EntityDescription) throws {
        var request = FetchRequest<ManagedObject>(entityName: entity.name)
        if let format = parameters.get("where") {
            let predicate: FetchPredicate
            do {
                predicate = try FetchPredicate(format: format)
            } catch {
                let position = error.offset.map { " (at character \($0))" } ?? ""
                throw HTTPError(
                    .badRequest, message: "The predicate '\(format)' does not parse\(position): \(error.message)")
            }
            for keyPath in predicate.keyPaths { try Self.check(keyPath, of: entity, in: "the predicate") }
            request.predicate = predicate
        }
        if let sort = parameters.get("sort") {
            request.sortDescriptors = try sort.split(separator: ",").map { key in
                let ascending = !key.hasPrefix("-")
                let name = String(ascending ? key : key.dropFirst())
                try Self.check(name, of: entity, in: "sort")
                return FetchSortDescriptor(name, ascending: ascending)
            }
        }
        if let limit = parameters.get("limit") {
            guard let count = Int(limit), count > 0 else {
                throw HTTPError(.badRequest, message: "The limit '\(limit)' is not a positive whole number.")
            }
            request.fetchLimit = count
        }
        self.request = request
    }

    /// Refuses a key path whose first key is not an attribute of `entity`.
    private static func check(_ keyPath: String, of entity: EntityDescription, in place: String) throws {
        let key = String(keyPath.prefix { $0 != "." })
        guard entity.attribute(named: key) != nil else {
            let known = entity.attributes.map(\.name).joined(separator: ", ")
            throw HTTPError(
                .badRequest,
                message: "\(entity.name) has no attribute '\(key)', named in \(place); its attributes are \(known).")
        }
    }
}

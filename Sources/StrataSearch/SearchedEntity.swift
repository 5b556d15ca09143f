import Foundation
import Strata

/// One entity whose objects a search index holds, and how its objects' default fields are made.
struct SearchedEntity: Sendable {
    /// The entity's name.
    let name: String
    /// The attributes marked `isIndexedForSearch`, in the model's order.
    let indexedKeys: [String]
    /// The display-name expression that makes each object's title.
    let displayName: FetchExpression?
    /// What the index depends on of the entity: its version hash, indexed keys and display name.
    let fingerprint: String

    /// The concrete entities of `store`'s configuration that have an attribute indexed for
    /// search or a display-name expression, in name order.
    static func all(in coordinator: PersistentStoreCoordinator, store: any IncrementalStore) throws -> [SearchedEntity]
    {
        let schema = coordinator.schema
        let names =
            store.configurationName.flatMap { coordinator.model.configurations[$0] }
            ?? schema.entities.map(\.name)
        return try names.sorted().compactMap { name -> SearchedEntity? in
            guard let entity = schema.entitiesByName[name], !entity.description.isAbstract else { return nil }
            let keys = entity.attributes.filter { $0.isIndexedForSearch && !$0.isTransient }.map(\.name)
            let expression = entity.description.searchDisplayNameExpression
            guard !keys.isEmpty || expression != nil else { return nil }
            var displayName: FetchExpression?
            if let expression {
                do {
                    displayName = try FetchExpression(format: expression)
                } catch {
                    throw SearchError(
                        code: .export,
                        message: "The search display name of '\(name)', '\(expression)', does not parse: \(error).")
                }
            }
            let hash = entity.versionHash.map { String($0, radix: 16) }.joined()
            return SearchedEntity(
                name: name, indexedKeys: keys, displayName: displayName,
                fingerprint: "\(name):\(hash):\(keys.joined(separator: ",")):\(expression ?? "")")
        }
    }

    /// `object`'s fields as the model makes them: its display name as the title, and each
    /// indexed attribute's value that reads as text on a line of its own.
    func defaultFields(of object: ManagedObject, in evaluation: FetchEvaluation) throws -> SearchableFields {
        let title: AttributeValue
        switch displayName {
        case .keyPath(let key)?: title = try object.value(forKeyPath: key)
        case let expression?: title = try evaluation.value(of: expression, for: object)
        case nil: title = .null
        }
        let lines = try indexedKeys.compactMap { try Self.text(of: object.value(forKey: $0)) }
        return SearchableFields(title: Self.text(of: title) ?? "", text: lines.joined(separator: "\n"))
    }

    /// `value` as words to search: strings, numbers, dates (ISO 8601), UUIDs and URLs; `nil`
    /// for null, Booleans, binary data and object IDs.
    static func text(of value: AttributeValue) -> String? {
        switch value {
        case .string(let string): string
        case .integer16(let number): String(number)
        case .integer32(let number): String(number)
        case .integer64(let number): String(number)
        case .decimal(let number): "\(number)"
        case .double(let number): String(number)
        case .float(let number): String(number)
        case .date(let date): date.ISO8601Format()
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .null, .boolean, .binary, .objectID: nil
        }
    }
}

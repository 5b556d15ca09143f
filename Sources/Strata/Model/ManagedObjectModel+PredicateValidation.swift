extension ManagedObjectModel.Parts {
    /// An ``ModelIssue/Kind/invalidPredicate`` issue for every predicate format in the model
    /// that does not parse: those of fetch request templates, fetched properties and partial
    /// fetch indexes. Each message names the owner and quotes the parser's message.
    ///
    /// - Complexity: O(*n*), where *n* is the total length of the model's predicate formats.
    func predicateIssues() -> [ModelIssue] {
        typealias Owner = (format: String?, entity: String, property: String, label: String)
        var owners: [Owner] = fetchRequestTemplates.map {
            ($0.predicateFormat, $0.entityName, $0.name, "Fetch request template '\($0.name)'")
        }
        for entity in entities {
            owners += entity.fetchedProperties.map {
                ($0.predicateFormat, entity.name, $0.name, "Fetched property '\(entity.name).\($0.name)'")
            }
            owners += entity.fetchIndexes.map {
                ($0.partialIndexPredicate, entity.name, $0.name, "Partial index '\(entity.name).\($0.name)'")
            }
        }
        return owners.compactMap { owner in
            Self.parseFailure(owner.format).map {
                ModelIssue(
                    .invalidPredicate, entity: owner.entity, property: owner.property,
                    "\(owner.label) has an invalid predicate. \($0)")
            }
        }
    }

    /// The parser's message when `format` does not parse; `nil` when it parses or is `nil`.
    private static func parseFailure(_ format: String?) -> String? {
        guard let format else { return nil }
        do {
            _ = try FetchPredicate(format: format)
            return nil
        } catch {
            return error.message
        }
    }
}

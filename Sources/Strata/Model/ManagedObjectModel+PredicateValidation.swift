extension ManagedObjectModel.Parts {
    /// An ``ModelIssue/Kind/invalidPredicate`` issue for every predicate format in the model
    /// that does not parse: those of fetch request templates, fetched properties and partial
    /// fetch indexes. Each message names the owner and quotes the parser's message.
    ///
    /// - Complexity: O(*n*), where *n* is the total length of the model's predicate formats.
    func predicateIssues() -> [ModelIssue] {
        var issues: [ModelIssue] = []
        for template in fetchRequestTemplates {
            if let message = Self.parseFailure(template.predicateFormat) {
                issues.append(
                    ModelIssue(
                        .invalidPredicate, entity: template.entityName, property: template.name,
                        "Fetch request template '\(template.name)' has an invalid predicate. \(message)"))
            }
        }
        for entity in entities {
            for fetched in entity.fetchedProperties {
                if let message = Self.parseFailure(fetched.predicateFormat) {
                    issues.append(
                        ModelIssue(
                            .invalidPredicate, entity: entity.name, property: fetched.name,
                            "Fetched property '\(entity.name).\(fetched.name)' has an invalid predicate. \(message)"))
                }
            }
            for index in entity.fetchIndexes {
                if let message = Self.parseFailure(index.partialIndexPredicate) {
                    issues.append(
                        ModelIssue(
                            .invalidPredicate, entity: entity.name, property: index.name,
                            "Partial index '\(entity.name).\(index.name)' has an invalid predicate. \(message)"))
                }
            }
        }
        return issues
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

extension ManagedObject {
    /// The objects the fetched property `key` fetches: the destination entity's objects
    /// matching its predicate, from every store of the context's coordinator that holds them,
    /// as the context sees them (unsaved changes included).
    ///
    /// The fetch runs on first access and its result is kept until the object is refreshed
    /// (``ManagedObjectContext/refresh(_:mergeChanges:)``, ``ManagedObjectContext/refreshAllObjects()``)
    /// or turned into a fault, as Core Data keeps it: later saves do not change it. In the
    /// predicate, `$FETCH_SOURCE` is this object (`author == $FETCH_SOURCE`) and
    /// `$FETCH_SOURCE.path` the value at `path` on it (`genre == $FETCH_SOURCE.favouriteGenre`);
    /// `$FETCHED_PROPERTY.name` is the property's name and `$FETCHED_PROPERTY.userInfo.key` a
    /// value of its user info. Other variables are an error. Fetched properties are how one
    /// store's objects refer to another store's.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when the entity has no
    ///   fetched property `key`, or a `$FETCH_SOURCE` or `$FETCHED_PROPERTY` key path names
    ///   nothing; `FetchPredicateError` when the predicate does not parse or uses another
    ///   variable; whatever the fetch throws.
    public func fetchedObjects(forKey key: String) throws -> [ManagedObject] {
        let context = try liveContext()
        if let kept = fetchedPropertyResults[key] { return kept }
        guard let property = entity.fetchedProperties.first(where: { $0.name == key }) else {
            throw unknownKey(key, expected: "fetched property")
        }
        var request = FetchRequest<ManagedObject>(entityName: property.destinationEntityName)
        if let format = property.predicateFormat {
            request.predicate = try resolvingVariables(of: try FetchPredicate(format: format), for: property)
        }
        let objects = Array(try context.fetch(request))
        fetchedPropertyResults[key] = objects
        return objects
    }

    /// `predicate` with `$FETCH_SOURCE` and `$FETCHED_PROPERTY` and their key paths replaced by
    /// their values.
    private func resolvingVariables(of predicate: FetchPredicate, for property: FetchedPropertyDescription) throws
        -> FetchPredicate
    {
        let resolved = try predicate.mappingExpressions { expression -> FetchExpression? in
            switch expression {
            case .variable("FETCH_SOURCE"): return .constant(.objectID(objectID))
            case .keyPathOn(.variable("FETCH_SOURCE"), let path): return .constant(try value(forKeyPath: path))
            case .keyPathOn(.variable("FETCHED_PROPERTY"), let path):
                return .constant(try Self.value(of: property, at: path, in: entity.name))
            default: return nil
            }
        }
        return try resolved.substituting([:])
    }

    /// The value at `path` of `property`: its `name`, or a `userInfo.key`.
    private static func value(of property: FetchedPropertyDescription, at path: String, in entityName: String) throws
        -> AttributeValue
    {
        if path == "name" { return .string(property.name) }
        if path.hasPrefix("userInfo.") {
            return property.userInfo[String(path.dropFirst("userInfo.".count))].map(AttributeValue.string) ?? .null
        }
        throw ContextError(
            code: .unknownKey,
            message: "The fetched property '\(entityName).\(property.name)' reads '$FETCHED_PROPERTY.\(path)'; "
                + "only 'name' and 'userInfo.<key>' can be read.")
    }
}

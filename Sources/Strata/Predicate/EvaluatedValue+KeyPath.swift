extension EvaluatedValue {
    /// The value at the dotted key path `path` from this value.
    ///
    /// - Each key is looked up with ``KeyValueResolving/resolvedValue(forKey:)``. A key the
    ///   object lacks is joined with the next one, so `address.city` reads the element `city`
    ///   of the composite attribute `address`, which objects keep under that path.
    /// - Null in the middle of the path (an empty to-one relationship) gives null.
    /// - On a collection, a key is looked up on every element, giving a collection;
    ///   collections met on the way are flattened, so `books.tags.name` gives the names of
    ///   all tags of all books, nulls included.
    /// - A component starting with `@` is a collection operator (see ``CollectionOperator``).
    ///   It applies to the collection reached so far after the rest of the path has been
    ///   applied to it, so `items.@sum.price` and `items.price.@sum` both sum the prices. A
    ///   union operator applies to the next key only and the rest of the path goes on from its
    ///   result, as in key-value coding: `items.@distinctUnionOfObjects.price.@count` counts
    ///   the distinct prices.
    ///
    /// - Parameter label: The expression as written, for error messages.
    /// - Throws: `FetchPredicateError` with code `.evaluation` for an unknown key or collection
    ///   operator, or a key applied to a value that is not an object.
    func value(atKeyPath path: String, label: @autoclosure () -> String) throws(FetchPredicateError) -> EvaluatedValue {
        if !path.utf8.contains(UInt8(ascii: ".")), path.utf8.first != UInt8(ascii: "@") {
            return try step(path, label: label())
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try value(at: components[...], label: label())
    }

    private func value(at components: ArraySlice<String>, label: @autoclosure () -> String) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        guard let key = components.first else { return self }
        let rest = components.dropFirst()
        if key.hasPrefix("@") {
            guard let collectionOperator = CollectionOperator(rawValue: key) else {
                throw FetchPredicateError(
                    code: .evaluation,
                    message: "'\(label())' uses the unknown collection operator \(key); "
                        + "use @count, @sum, @avg, @min, @max or a union operator such as @distinctUnionOfObjects."
                )
            }
            guard collectionOperator.isUnion else {
                return try collectionOperator.apply(to: try value(at: rest, label: label()), label: label())
            }
            let property = rest.first.map { $0.hasPrefix("@") ? rest.prefix(0) : rest.prefix(1) } ?? rest.prefix(0)
            let union = try collectionOperator.apply(to: try value(at: property, label: label()), label: label())
            return try union.value(at: rest.dropFirst(property.count), label: label())
        }
        let next: EvaluatedValue
        do {
            next = try step(key, label: label())
        } catch {
            // `address.city`: the element `city` of the composite attribute `address` is one key.
            guard let following = rest.first, !following.hasPrefix("@"),
                let element = try? value(at: ([key + "." + following] + rest.dropFirst())[...], label: label())
            else { throw error }
            return element
        }
        return try next.value(at: rest, label: label())
    }

    /// The value one key further.
    private func step(_ key: String, label: @autoclosure () -> String) throws(FetchPredicateError) -> EvaluatedValue {
        switch self {
        case .value(.null):
            return self
        case .value(let value):
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' looks up the key '\(key)' on \(value.kindDescription), which has no keys."
            )
        case .object(let object):
            guard let resolved = object.resolvedValue(forKey: key) else {
                throw FetchPredicateError(
                    code: .evaluation, message: "'\(label())' uses the key '\(key)', which the object does not have.")
            }
            return EvaluatedValue(resolved)
        case .collection(let elements):
            var values: [EvaluatedValue] = []
            for element in elements {
                switch try element.step(key, label: label()) {
                case .collection(let inner): values.append(contentsOf: inner)
                case let single: values.append(single)
                }
            }
            return .collection(values)
        }
    }
}

import Strata

extension PostgresLayout {
    /// A fetch index of two R-tree elements: a GiST index on the point their attributes make,
    /// each coordinate kept within ±``limit`` (PostgreSQL's geometric code subtracts
    /// coordinates, which infinities would turn into NaN, and multiplies them into areas, which
    /// fail on overflow). A fetch bounding its attributes
    /// adds `point(…) <@ box(…)`, which the index serves; the comparisons themselves stay in
    /// the query, so the answer is exact.
    struct SpatialIndex: Sendable, Hashable {
        /// The largest coordinate a point holds; values beyond it, infinities and NaN are held
        /// as ±limit. Small enough that the area of any box of such points is a finite `Double`.
        static let limit = 1e150

        /// The index's name in the schema, unquoted.
        let name: String
        /// The fetch index's name in the model, which `indexed:by:` gives.
        let fetchIndexName: String
        /// The entity declaring the index; its objects and its sub-entities' are indexed.
        let entityName: String
        /// The two indexed attributes, and their columns.
        let attributes: [String]
        let columns: [String]

        /// The point of the row whose columns `prefix` qualifies (`t.`, or nothing in the
        /// index's definition).
        func point(_ prefix: String) -> String {
            "point("
                + columns.map { Self.clamped(prefix + PostgresIdentifier.quoted($0) + "::float8") }
                .joined(separator: ", ") + ")"
        }

        /// `value` held within ±``limit``.
        static func clamped(_ value: String) -> String {
            "greatest(least(\(value), '\(limit)'::float8), '\(-limit)'::float8)"
        }
    }

    /// The fetch indexes of the model's entities, as the store builds them.
    struct FetchIndexes {
        /// The `CREATE INDEX` statements, with their tables.
        var definitions: [IndexDefinition] = []
        /// The GiST indexes of R-tree elements, which fetches use through ``SpatialIndex``.
        var spatial: [SpatialIndex] = []
        /// Why each index left out is left out, naming it.
        var skipped: [String] = []
    }

    /// The fetch indexes of `model`'s entities in this layout:
    /// - binary elements: a B-tree index on their columns, ascending or descending;
    /// - one R-tree element: a B-tree index on its column, which serves ranges;
    /// - two R-tree elements: a GiST index on their point (``SpatialIndex``);
    /// - a partial index's predicate: the index's `WHERE`, when it translates as a fetch's
    ///   condition on the entity's own columns.
    ///
    /// Anything else is skipped, with the reason: R-tree indexes of more than two elements
    /// (PostgreSQL's built-in points have two coordinates), properties without a column,
    /// partial predicates with no SQL form of their own, and names a table or another index
    /// has. They are made before the indexes PostgreSQL names itself, which then choose other
    /// names.
    func fetchIndexes(model: ModelSchema) -> FetchIndexes {
        var indexes = FetchIndexes()
        // Indexes share one namespace with the schema's tables and their primary keys' indexes.
        var taken = Set(
            tableNames.flatMap { [PostgresIdentifier.clipped($0), PostgresIdentifier.clipped($0 + "_pkey")] })
        for (entityName, table) in tableOfEntity.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entitiesByName[entityName] else { continue }
            for fetchIndex in entity.description.fetchIndexes {
                let place = "'\(entityName).\(fetchIndex.name)'"
                let columns = fetchIndex.elements.compactMap {
                    columnName(of: $0.propertyName, entity: entityName, model: model)
                }
                guard !columns.isEmpty, columns.count == fetchIndex.elements.count else {
                    indexes.skipped.append("\(place) names a property without a column")
                    continue
                }
                var condition = ""
                if let format = fetchIndex.partialIndexPredicate {
                    guard let translated = Self.partialCondition(format, of: entity, layout: self, model: model) else {
                        indexes.skipped.append(
                            "\(place) is a partial index whose predicate has no SQL form of its own (only comparisons "
                                + "of the entity's attributes with constants have)")
                        continue
                    }
                    condition = " WHERE " + translated
                }
                let name = "\(entityName)_\(fetchIndex.name)"
                guard taken.insert(PostgresIdentifier.clipped(name)).inserted else {
                    indexes.skipped.append(
                        "\(place) would be named '\(name)', which a table or another index of the schema has")
                    continue
                }
                let target = "\(PostgresIdentifier.quoted(name)) ON \(qualified(table.name))"
                // A valid model's index is all binary, or all R-tree over non-optional numbers.
                guard fetchIndex.elements.contains(where: { $0.kind == .rTree }) else {
                    let terms = zip(fetchIndex.elements, columns).map {
                        PostgresIdentifier.quoted($1) + ($0.isAscending ? " ASC" : " DESC")
                    }
                    indexes.definitions.append(
                        IndexDefinition(
                            table: table.name,
                            statement: "CREATE INDEX \(target) (\(terms.joined(separator: ", ")))\(condition)"))
                    continue
                }
                switch columns.count {
                case 1:
                    indexes.definitions.append(
                        IndexDefinition(
                            table: table.name,
                            statement: "CREATE INDEX \(target) (\(PostgresIdentifier.quoted(columns[0])))\(condition)"))
                case 2:
                    let spatial = SpatialIndex(
                        name: PostgresIdentifier.clipped(name), fetchIndexName: fetchIndex.name, entityName: entityName,
                        attributes: fetchIndex.elements.map(\.propertyName), columns: columns)
                    indexes.definitions.append(
                        IndexDefinition(
                            table: table.name,
                            statement: "CREATE INDEX \(target) USING gist ((\(spatial.point(""))))\(condition)"))
                    indexes.spatial.append(spatial)
                default:
                    indexes.skipped.append(
                        "\(place) is an R-tree index of \(columns.count) elements; PostgreSQL's built-in points have two"
                    )
                }
            }
        }
        return indexes
    }

    /// The `WHERE` condition of a partial index: `format` translated as a fetch translates it,
    /// on the entity's own columns unqualified, with its constants written in, so that
    /// PostgreSQL's planner sees that a fetch's condition implies it. `nil` when the predicate
    /// has no such form: it does not translate, reaches other rows, or holds a constant that
    /// has no form of SQL text (``PostgresValue/constantSQL``).
    private static func partialCondition(
        _ format: String, of entity: EntitySchema, layout: PostgresLayout, model: ModelSchema
    ) -> String? {
        guard let predicate = try? FetchPredicate(format: format) else { return nil }
        var translator = PostgresPredicateTranslator(
            layout: layout, model: model, storeIdentifier: "", entity: entity, qualified: false)
        guard let condition = translator.condition(for: predicate), !translator.readsOtherRows else { return nil }
        let constants = translator.parameters.map(\.constantSQL)
        var sql = ""
        var quote: Character?
        var characters = condition.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if let open = quote {
                if character == open { quote = nil }
                sql.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                sql.append(character)
            } else if character == "$" {
                var digits = ""
                while let digit = pending, digit.isASCII, digit.isNumber {
                    digits.append(digit)
                    pending = characters.next()
                }
                guard let number = Int(digits), constants.indices.contains(number - 1),
                    let constant = constants[number - 1]
                else { return nil }
                sql += constant
            } else {
                sql.append(character)
            }
        }
        return sql
    }
}

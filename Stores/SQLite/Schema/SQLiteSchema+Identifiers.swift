import Strata

extension SQLiteSchema {
    /// Whether `name` may be written into SQL text as an identifier, unquoted as Core Data
    /// writes its schema: the model's one identifier rule (``ManagedObjectModel/isIdentifier(_:)``),
    /// which admits no quote, semicolon, comment, space or control character.
    static func isIdentifier(_ name: String) -> Bool {
        ManagedObjectModel.isIdentifier(name)
    }

    /// Every name the layout writes into SQL text: tables, columns, indexes, R-tree tables and
    /// the columns they index. The triggers' names are made of these and of fixed words.
    var identifiers: [String] {
        var names: [String] = []
        for table in entityTables { names += [table.name] + table.columns.map(\.name) }
        for table in joinTables {
            names += [table.name, table.sourceColumn, table.destinationColumn] + (table.orderColumn.map { [$0] } ?? [])
        }
        names += referenceTables.map(\.name)
        for index in indexes {
            // An index column is `<column>` or `<column> COLLATE BINARY ASC`, the rest fixed words.
            names += [index.name, index.table] + index.columns.map { String($0.prefix { $0 != " " }) }
        }
        for index in rTreeIndexes { names += [index.name, index.table] + index.dimensions.map(\.column) }
        return names
    }

    /// The first name of ``identifiers`` that is not an identifier, or `nil`: checked before any
    /// statement of the layout is built into a file, so that a name model validation let
    /// through fails here instead of being spliced into SQL.
    var firstInvalidIdentifier: String? {
        identifiers.first { !Self.isIdentifier($0) }
    }

    /// Checks ``firstInvalidIdentifier``.
    ///
    /// - Throws: ``StoreError`` with code `unsupported`, naming `storeName` and the name.
    func checkIdentifiers(storeName: String) throws {
        guard let name = firstInvalidIdentifier else { return }
        throw StoreError(
            code: .unsupported,
            message: "\(storeName) cannot lay out the model: '\(name)' would be written into SQL but is not an "
                + "identifier (letters, digits and '_', not starting with a digit).")
    }
}

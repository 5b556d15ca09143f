import Strata

/// One column of an entity table, with the SQL type Core Data declares for it.
struct SQLiteColumn: Sendable, Hashable {
    /// The declared types, in the order Core Data groups columns by.
    enum DeclaredType: String, Sendable, Hashable, CaseIterable, Comparable {
        case integer = "INTEGER"
        case timestamp = "TIMESTAMP"
        case decimal = "DECIMAL"
        case float = "FLOAT"
        case varchar = "VARCHAR"
        case blob = "BLOB"

        /// The type of an attribute's column (COREDATA-FORMATS §C.4).
        init(_ type: AttributeType) {
            switch type {
            case .integer16, .integer32, .integer64, .boolean, .objectID, .undefined, .composite: self = .integer
            case .date: self = .timestamp
            case .decimal: self = .decimal
            case .double, .float: self = .float
            case .string, .uri: self = .varchar
            case .binary, .uuid, .transformable: self = .blob
            }
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// What a column holds.
    enum Role: Sendable, Hashable {
        /// `Z_PK`, the object's primary key.
        case primaryKey
        /// `Z_ENT`, the number of the row's entity.
        case entity
        /// `Z_OPT`, the optimistic-lock version.
        case version
        /// The value of an attribute of `entity`.
        case attribute(entity: String, name: String)
        /// The `Z_PK` of the destination of to-one `name` of `entity`.
        case toOne(entity: String, name: String)
        /// The entity number of that destination, for destinations with sub-entities.
        case toOneEntity(entity: String, name: String)
        /// The position of the row in ordered to-many `name` of `entity` (the inverse of a to-one).
        case order(entity: String, name: String)
        /// The URI of the destination of to-one `name` of `entity`, an object of another store:
        /// the relationship leads out of the configuration (docs/CROSS-STORE-RELATIONSHIPS.md).
        case reference(entity: String, name: String)
    }

    /// The column's name (`ZTITLE`, `Z1_BOOK`).
    let name: String
    /// Its declared type.
    let type: DeclaredType
    /// What it holds.
    let role: Role
}

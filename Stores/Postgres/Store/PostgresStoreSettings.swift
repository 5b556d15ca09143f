import Strata

/// The settings of a PostgreSQL store (`StoreOptions.settings`), or their defaults
/// (docs/POSTGRES.md).
struct PostgresStoreSettings: Sendable {
    /// `maxConnections`: the most connections the store's pool opens at once.
    let maxConnections: Int
    /// `slowStatementThreshold`, in milliseconds: how long a statement takes before it is
    /// logged as slow.
    let slowStatementThreshold: Duration
    /// `maximumGenerationAge`, in milliseconds: how long a query generation's view may hold
    /// its transaction (15 minutes by default; from 1 second to 24 hours).
    let maximumGenerationAge: Duration
    /// `maximumGenerations`: how many query generations' views may be open at once, each
    /// holding a server connection (8 by default).
    let maximumGenerations: Int

    /// - Throws: `StoreError` with code `StoreError/Code/invalidOption` naming a setting that
    ///   is not a whole number, a pool or generation bound below 1, or a negative threshold.
    init(_ options: StoreOptions) throws {
        let name = PostgresStore.storeTypeName
        maxConnections = try options.integer("maxConnections", of: name) ?? 4
        maximumGenerations = try options.integer("maximumGenerations", of: name) ?? 8
        for (key, value) in [("maxConnections", maxConnections), ("maximumGenerations", maximumGenerations)]
        where value < 1 {
            throw StoreError(code: .invalidOption, message: "The \(name) setting '\(key)' must be at least 1.")
        }
        let slow = try options.integer("slowStatementThreshold", of: name) ?? 500
        guard slow >= 0 else {
            throw StoreError(
                code: .invalidOption,
                message: "The \(name) setting 'slowStatementThreshold' (milliseconds) must not be negative.")
        }
        slowStatementThreshold = .milliseconds(slow)
        let age = try options.integer("maximumGenerationAge", of: name).map { Duration.milliseconds($0) }
        maximumGenerationAge = min(max(age ?? .seconds(900), .seconds(1)), .seconds(86_400))
    }
}

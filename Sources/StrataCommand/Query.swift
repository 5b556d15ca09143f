import ArgumentParser
import Foundation
import Strata

/// `strata query STORE --entity E [PREDICATE]`: the objects of a store a fetch request finds,
/// printed as a table, JSON, CSV or NDJSON.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch the objects of one entity that a predicate matches, from a store of any type.",
        discussion: """
            The store is opened read-only and left as it was found. The predicate is a Core Data format string \
            (name BEGINSWITH[c] 'p' AND population > 100000); it is checked against the model first, so a \
            syntax error shows the predicate with a caret under the position, and an unknown entity or key names \
            the closest ones. Rows are the fetch's objects, sub-entities' included: their attributes, then their \
            relationships as object URIs (--follow prints the related objects' attributes instead). They are \
            printed as they are read, a batch at a time, so a long result needs no more memory than a short one \
            beyond its object IDs. --count prints the number of matching objects; --properties, --distinct, \
            --group-by and --aggregate make a dictionary fetch, as FetchRequest's properties to fetch, distinct \
            results, properties to group by and aggregate expressions do.
            """)

    @Argument(help: "The store file, or a PostgreSQL store's URL (postgresql://user@host:port/db?schema=name).")
    var store: String

    @Argument(help: "A predicate in Core Data's format syntax; every object of the entity when left out.")
    var predicate: String?

    @OptionGroup var modelOptions: ModelOptions

    @Option(help: "The entity whose objects to fetch; its sub-entities' objects are included.")
    var entity: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Keys to sort by, comma-separated; a leading - sorts that key descending (name,-population).",
            valueName: "keys"))
    var sort: String?

    @Option(help: "The most rows to print.")
    var limit: Int?

    @Option(help: "How many rows to skip first.")
    var offset = 0

    @Option(
        help: ArgumentHelp(
            "The key paths to print, comma-separated (name,country.name); every attribute and relationship "
                + "by default.", valueName: "keys"))
    var properties: String?

    @Flag(help: "Print how many objects match instead of the objects.")
    var count = false

    @Flag(help: "Leave out rows equal to an earlier row (with --properties or --group-by).")
    var distinct = false

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Attributes whose values make groups, comma-separated: one row per group.", valueName: "keys"))
    var groupBy: String?

    @Option(
        help: ArgumentHelp(
            "A value computed over each group (or over every match without --group-by): function:key, the function "
                + "one of \(ExpressionDescription.aggregateFunctions.sorted().joined(separator: ", ")); repeat for more.",
            valueName: "function:key"))
    var aggregate: [String] = []

    @Option(
        help: ArgumentHelp(
            "A relationship whose objects to print with their attributes instead of their URIs; repeat for more.",
            valueName: "relationship"))
    var follow: [String] = []

    @Option(help: "How to print the rows: table, json, csv or ndjson.")
    var format = QueryFormat.table

    @Flag(
        help: ArgumentHelp(
            "Print how the store runs the fetch instead of its rows: the SQL or reads it runs, the engine's plan, "
                + "and the parts Strata evaluates in memory."))
    var explain = false

    /// Rows read and printed at a time; the objects of earlier batches are let go.
    static let batchSize = 500

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more.") }
        let grouped = groupBy != nil || !aggregate.isEmpty
        if count, properties != nil || distinct || grouped || !follow.isEmpty {
            throw ValidationError(
                "--count prints a number: it takes no --properties, --distinct, --group-by, "
                    + "--aggregate or --follow.")
        }
        if grouped, properties != nil {
            throw ValidationError("A row of --group-by holds its group's keys and aggregates: leave out --properties.")
        }
        if distinct, properties == nil, !grouped {
            throw ValidationError("--distinct compares rows of chosen properties: add --properties or --group-by.")
        }
        if explain, distinct || grouped {
            throw ValidationError(
                "--explain shows fetches of objects and counts: not --distinct, --group-by or "
                    + "--aggregate.")
        }
        if !follow.isEmpty, distinct || grouped {
            throw ValidationError("--follow prints objects: it does not go with --distinct, --group-by or --aggregate.")
        }
    }

    func run() throws {
        try reportingFailure {
            let file = try StoreFile(path: store)
            let model = try file.model(try modelOptions.load())
            let coordinator = try StoreFile.coordinator(for: model)
            let query = try QueryRequest(self, file: file, schema: coordinator.schema)
            let opened = try file.open(in: coordinator)
            defer { try? coordinator.remove(opened) }
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait {
                if explain {
                    print(try QueryExplanation(query, count: count, store: opened).text)
                } else if count {
                    print(try context.count(for: query.request))
                } else if query.isDictionaryFetch {
                    try printDictionaries(query, in: context)
                } else {
                    try printObjects(query, in: context)
                }
            }
        }
    }

    private func printDictionaries(_ query: QueryRequest, in context: ManagedObjectContext) throws {
        let rows = try context.fetchDictionaries(query.request)
        let output = QueryOutput(format: format, columns: query.columns)
        for row in rows { output.write(query.columns.map { .value(row[$0] ?? .null) }) }
        output.finish()
    }

    /// Prints the objects a batch at a time, resetting the context after each batch so that
    /// only the result's object IDs stay in memory.
    private func printObjects(_ query: QueryRequest, in context: ManagedObjectContext) throws {
        var request = query.request
        request.fetchBatchSize = Self.batchSize
        let objects = try context.fetch(request)
        let output = QueryOutput(format: format, columns: query.columns)
        let progress = ScanProgress(total: objects.count)
        for (index, object) in objects.enumerated() {
            output.write(try query.cells(of: object))
            progress.show(index + 1)
            if (index + 1).isMultiple(of: Self.batchSize) { context.reset() }
        }
        progress.finish()
        output.finish()
    }
}

import Foundation
import Strata
import StrataPostgres
import StrataStores
import StrataTestSupport
import Testing

/// `strata query`: through the built binary, its rows equal the same fetch through the API on
/// every store type, its errors name what was meant, and the store is left as it was found.
@Suite struct QueryCommandTests {
    /// How many cities ``writeCities(type:at:)`` writes: more than two of the command's batches.
    static let cityCount = 1_203

    /// Writes three countries and ``cityCount`` cities into a new store of `type` at `url`:
    /// every tenth city without a population, one name with a comma and quotes.
    static func writeCities(type: StoreType, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: TravelModel.make(), storeTypes: [type])
        try coordinator.addStore(type: type.name, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let countries = try ["France", "Japan", "Peru"].map { name in
                let country = try context.insertNewObject(forEntityName: "Country")
                try country.setValue(.string(name), forKey: "name")
                return country
            }
            for number in 0..<cityCount {
                let city = try context.insertNewObject(forEntityName: "City")
                let name = number == 7 ? "Saint-Denis, \"Nord\"" : "City \(number)"
                try city.setValue(.string(name), forKey: "name")
                if !number.isMultiple(of: 10) {
                    try city.setValue(.integer64(Int64(number * 37 % 5_000)), forKey: "population")
                }
                try city.setObject(countries[number % 3], forKey: "country")
            }
            try context.save()
        }
    }

    /// The rows of `request` through the API on the store at `url`, as `strata query` prints
    /// them in JSON: names and populations, and the country's name.
    static func expectedRows(of request: FetchRequest<ManagedObject>, type: StoreType, at url: URL) throws -> [[String:
        String]]
    {
        let coordinator = try PersistentStoreCoordinator(model: TravelModel.make(), storeTypes: [type])
        var description = PersistentStoreDescription(type: type.name, url: url)
        description.isReadOnly = true
        try coordinator.addStore(description)
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            try context.fetch(request).map { city in
                [
                    "name": text(of: try city.value(forKey: "name")),
                    "population": text(of: try city.value(forKey: "population")),
                    "country.name": text(of: try city.value(forKeyPath: "country.name")),
                ]
            }
        }
    }

    /// The rows `strata query` printed as NDJSON, with values read the way ``expectedRows`` reads them.
    static func printedRows(_ output: String) throws -> [[String: String]] {
        try output.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object.mapValues { value in
                switch value {
                case let string as String: text(of: .string(string))
                case let number as NSNumber: text(of: .integer64(number.int64Value))
                default: text(of: .null)
                }
            }
        }
    }

    /// A string, a whole number or nothing, told apart.
    static func text(of value: AttributeValue) -> String {
        switch value {
        case .string(let string): "string \(string)"
        case .integer64(let number): "number \(number)"
        case .null: "null"
        default: "other"
        }
    }

    /// The names and contents of the files in `folder`.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    static let predicate = "population > 1000 AND name BEGINSWITH[c] 'c' AND country.name != 'Peru'"

    /// The request `strata query` runs for ``predicate``, sorted by population descending, then name.
    static func request(offset: Int, limit: Int) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: "City")
        request.predicate = try FetchPredicate(format: predicate)
        request.sortDescriptors = [FetchSortDescriptor("population", ascending: false), FetchSortDescriptor("name")]
        request.fetchOffset = offset
        request.fetchLimit = limit
        return request
    }

    @Test(arguments: StoreType.builtInFileTypes)
    func rowsEqualTheSameFetchThroughTheAPIAndTheFolderIsLeftAsFound(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Cities.\(type.name)")
        try Self.writeCities(type: type, at: url)
        let before = try Self.contents(of: folder.url)
        let outcome = try StrataProcess.run([
            "query", url.path, "--entity", "City", Self.predicate, "--sort", "-population,name", "--offset", "3",
            "--limit", "600", "--properties", "name,population,country.name", "--format", "ndjson",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let printed = try Self.printedRows(outcome.output)
        let expected = try Self.expectedRows(of: try Self.request(offset: 3, limit: 600), type: type, at: url)
        #expect(printed.count == expected.count)
        #expect(printed.count > 500, "More than one batch is printed")
        #expect(printed == expected)
        let after = try Self.contents(of: folder.url)
        #expect(Set(after.keys) == Set(before.keys), "No file is added or removed")
        // Every LMDB reader registers in the lock file's reader table: its bytes are LMDB's to change.
        for (name, data) in before where !name.hasSuffix("-lock") {
            #expect(after[name] == data, "\(name) is unchanged")
        }
    }

    @Test func everyObjectOfAnEntityIsPrintedAsATableWithRelationshipsAsURIs() throws {
        let folder = try TemporaryDirectory()
        let url = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: folder)
        let outcome = try StrataProcess.run(["query", url.path, "--entity", "City", "--sort", "name"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true) == [
                "name", "population", "country", "twins",
            ])
        #expect(lines.count == 6)
        let kyoto = lines[2].split(separator: " ").map(String.init)
        #expect(kyoto.count == 4 && kyoto[0] == "Kyoto" && kyoto[1] == "NULL", "\(lines[2])")
        let paris = lines[4].split(separator: " ").map(String.init)
        #expect(paris.count == 4, "Paris, its population, its country and its twin: \(lines[4])")
        #expect(paris.first == "Paris" && paris.dropFirst().first == "2100000")
        #expect(paris.last?.hasSuffix("/City/p3") == true, "Paris's twin is Kyoto: \(lines[4])")
        #expect(lines.last == "(3 rows)")
    }

    @Test func countsGroupsAndDistinctValuesEqualTheAPIs() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Cities.sqlite")
        try Self.writeCities(type: .sqlite, at: url)
        let count = try StrataProcess.run(["query", url.path, "--entity", "City", "--count", Self.predicate])
        var request = try Self.request(offset: 0, limit: 0)
        request.fetchLimit = nil
        let coordinator = try PersistentStoreCoordinator(model: TravelModel.make(), storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(count.output == "\(try context.performAndWait { try context.count(for: request) })\n")

        let groups = try StrataProcess.run([
            "query", url.path, "--entity", "City", "--group-by", "country.name", "--aggregate", "sum:population",
            "--aggregate", "count:name", "--format", "csv",
        ])
        #expect(groups.status == 0, "\(groups.error)")
        var grouped = FetchRequest<ManagedObject>(entityName: "City")
        grouped.propertiesToGroupBy = ["country.name"]
        grouped.propertiesToFetch = ["country.name"]
        grouped.expressionsToFetch = [
            ExpressionDescription(name: "sum", expression: try FetchExpression(format: "sum:(population)")),
            ExpressionDescription(name: "count", expression: try FetchExpression(format: "count:(name)")),
        ]
        let rows = try context.performAndWait { try context.fetchDictionaries(grouped) }
        let expected =
            ["country.name,sum:population,count:name"]
            + rows.map { row in
                [row["country.name"], row["sum"], row["count"]].map { value in
                    switch value {
                    case .string(let text)?: text
                    case .integer64(let number)?: String(number)
                    default: "?"
                    }
                }.joined(separator: ",")
            }
        #expect(groups.output.split(separator: "\n").map(String.init) == expected)

        let distinct = try StrataProcess.run([
            "query", url.path, "--entity", "City", "--properties", "country.name", "--distinct", "--sort",
            "country.name", "--format", "json",
        ])
        #expect(distinct.status == 0, "\(distinct.error)")
        let values = try #require(
            try JSONSerialization.jsonObject(with: Data(distinct.output.utf8)) as? [[String: String]])
        #expect(values == [["country.name": "France"], ["country.name": "Japan"], ["country.name": "Peru"]])
    }

    @Test func csvQuotesFieldsAndFollowPrintsRelatedObjects() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Cities.lmdb")
        try Self.writeCities(type: .lmdb, at: url)
        let csv = try StrataProcess.run([
            "query", url.path, "--entity", "City", "name CONTAINS ','", "--properties", "name,population",
            "--format", "csv",
        ])
        #expect(csv.output == "name,population\n\"Saint-Denis, \"\"Nord\"\"\",259\n", "\(csv.output) \(csv.error)")
        let followed = try StrataProcess.run([
            "query", url.path, "--entity", "City", "name == 'City 1'", "--properties", "name,country",
            "--follow", "country", "--format", "json",
        ])
        #expect(followed.status == 0, "\(followed.error)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(followed.output.utf8)) as? [[String: Any]])
        let country = try #require(rows.first?["country"] as? [String: Any])
        #expect(country["name"] as? String == "Japan")
        #expect((country["uri"] as? String)?.contains("/Country/p") == true)
    }

    @Test func aSyntaxErrorShowsThePredicateWithACaretUnderThePosition() throws {
        let folder = try TemporaryDirectory()
        let url = try CommandStores.written(type: "XML", named: "guide.xml", in: folder)
        let outcome = try StrataProcess.run(["query", url.path, "--entity", "City", "population > AND name == 'x'"])
        #expect(outcome.status == 1)
        #expect(outcome.output.isEmpty)
        let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("strata: Syntax error: "), "\(outcome.error)")
        #expect(lines[1] == "  population > AND name == 'x'")
        #expect(lines[2] == "               ^", "The caret stands under 'AND': \(outcome.error)")
    }

    @Test func unknownNamesAreRefusedNamingTheClosestOnes() throws {
        let folder = try TemporaryDirectory()
        let url = try CommandStores.written(type: "Binary", named: "guide.binary", in: folder)
        let cases: [([String], String)] = [
            (["--entity", "Cty"], "The model has no entity 'Cty': did you mean 'City'?"),
            (
                ["--entity", "City", "popluation > 3"],
                "Entity 'City' has no property 'popluation', named in the "
                    + "predicate: did you mean 'population'?"
            ),
            (
                ["--entity", "City", "country.nme == 'x'"],
                "Entity 'Country' has no property 'nme' (in the key path "
                    + "'country.nme'), named in the predicate: did you mean 'name'?"
            ),
            (["--entity", "City", "--sort", "-popul"], "named in --sort: did you mean 'population'?"),
            (
                ["--entity", "City", "--follow", "twin"],
                "Entity 'City' has no relationship 'twin' to follow: did you "
                    + "mean 'twins'?"
            ),
            (
                ["--entity", "City", "--group-by", "country", "--aggregate", "total:population"],
                "--aggregate 'total:population' is not function:key"
            ),
            (["--entity", "City", "--count", "--properties", "name"], "--count prints a number"),
        ]
        for (arguments, message) in cases {
            let outcome = try StrataProcess.run(["query", url.path] + arguments)
            #expect(outcome.status != 0, "\(arguments)")
            #expect(outcome.error.contains(message), "\(arguments): \(outcome.error)")
        }
    }

    @Test func aPostgreSQLStoreAnswersAsTheAPIDoes() throws {
        let folder = try TemporaryDirectory()
        let source = folder.file("Cities.sqlite")
        try Self.writeCities(type: .sqlite, at: source)
        let server = try PostgresCommandTests.newStoreURL()
        #expect(try StrataProcess.run(["convert", source.path, server.absoluteString]).status == 0)
        let outcome = try StrataProcess.run([
            "query", server.absoluteString, "--entity", "City", Self.predicate, "--sort", "-population,name",
            "--offset", "3", "--limit", "600", "--properties", "name,population,country.name", "--format", "ndjson",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let expected = try Self.expectedRows(of: try Self.request(offset: 3, limit: 600), type: .postgres, at: server)
        #expect(try Self.printedRows(outcome.output) == expected)
        #expect(expected.count > 500)
    }

    @Test func explainShowsTheStatementTheStoreRunsAndWhatStrataEvaluatesInMemory() throws {
        let folder = try TemporaryDirectory()
        let predicate = "population > 1000 AND name MATCHES 'C.*'"
        let sqlite = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: folder)
        let bySQL = try StrataProcess.run([
            "query", sqlite.path, "--entity", "City", predicate, "--sort", "-population", "--limit", "2", "--explain",
        ])
        #expect(bySQL.status == 0, "\(bySQL.error)")
        let lines = bySQL.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Store: SQLite")
        let statement = try #require(lines.first { $0.hasPrefix("  1. SELECT t0.Z_PK, t0.Z_ENT FROM ZCITY t0 WHERE ") })
        #expect(statement.contains("ORDER BY t0.ZPOPULATION DESC"))
        #expect(statement.hasSuffix("LIMIT 2 OFFSET 0 -- bound: 1000, 'C.*'"), "\(statement)")
        #expect(lines.contains("Engine plan:"))
        #expect(lines.contains("Evaluated by Strata in memory: nothing"))
        #expect(lines.last == "Sorted and paged: by the store")
        let mixed = try StrataProcess.run([
            "query", sqlite.path, "--entity", "City", "lowercase(name) == 'paris' AND name != country.name",
            "--explain",
        ])
        #expect(mixed.status == 0, "\(mixed.error)")
        #expect(mixed.output.contains("strata_evaluate(0, t0.ZNAME)"), "\(mixed.output)")
        #expect(mixed.output.contains("Evaluated by Strata on each row, inside the engine:\n  lowercase"))
        #expect(mixed.output.contains("Evaluated by Strata in memory:\n  name != country.name\n"))
        #expect(mixed.output.hasSuffix("Sorted and paged: by Strata in memory\n"))

        let binary = try CommandStores.written(type: "Binary", named: "guide.binary", in: folder)
        let inMemory = try StrataProcess.run(["query", binary.path, "--entity", "City", predicate, "--explain"])
        #expect(inMemory.status == 0, "\(inMemory.error)")
        #expect(
            inMemory.output.hasSuffix(
                "Evaluated by Strata in memory:\n  population > 1000\n  name MATCHES \"C.*\"\n"
                    + "Sorted and paged: by Strata in memory\n"), "\(inMemory.output)")

        let lmdb = try CommandStores.written(type: "LMDB", named: "guide.lmdb", in: folder)
        let counted = try StrataProcess.run(["query", lmdb.path, "--entity", "City", "--count", "--explain"])
        #expect(
            counted.output == "Store: LMDB\nSteps:\n  1. Count the records of City kept for City, decoding none.\n"
                + "Evaluated by Strata in memory: nothing\n", "\(counted.output) \(counted.error)")

        let server = try PostgresCommandTests.newStoreURL().absoluteString
        #expect(try StrataProcess.run(["convert", sqlite.path, server]).status == 0)
        let postgres = try StrataProcess.run(["query", server, "--entity", "City", predicate, "--explain"])
        #expect(postgres.status == 0, "\(postgres.error)")
        #expect(postgres.output.contains("  1. SELECT "), "\(postgres.output)")
        #expect(postgres.output.contains("Engine plan:\n  "), "PostgreSQL's EXPLAIN: \(postgres.output)")
    }
}

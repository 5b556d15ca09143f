import CBenchSQLite
import Foundation
import Strata
import StrataSearch

/// A search index of a SQLite store of photos with two text attributes, kept by
/// `SearchIndexExporter`, against the same FTS5 work by hand in the same run: the first export,
/// keeping it current after updates, and queries of one and two terms.
enum SearchExport {
    /// Photos per batch insert while filling, updated photos per save, and queries per run.
    private static let photosPerInsert = 20_000
    private static let updatesPerSave = 1_000
    private static let queriesPerRun = 20
    /// The words titles and captions are made of.
    private static let vocabulary: [String] = {
        let syllables = [
            "ka", "lo", "mi", "ra", "ne", "to", "su", "pa", "vi", "de", "ko", "la", "ti", "ba", "fu", "go",
        ]
        return (0..<1_000).map { number in
            syllables[number % 16] + syllables[(number / 16) % 16] + syllables[(number / 256) % 16] + "n"
        }
    }()

    /// The photos' model: `title` (three words) and `caption` (twelve words), both indexed, the
    /// title naming each photo in results.
    static func makeModel() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("title", .string).indexedForSearch()
                AttributeDescription("caption", .string).indexedForSearch()
            }
            .displayedInSearch(as: "title")
        }
        try model.freeze()
        return model
    }

    /// Fills a store of `count` photos and times each step over `repetitions` runs after a
    /// warm-up; one line of the report per step.
    static func measure(count: Int, repetitions: Int, log: (String) -> Void) throws -> [String] {
        let scratch = try ScratchDirectory("search")
        defer { scratch.remove() }
        let storeURL = try scratch.fresh("photos").appendingPathComponent("photos.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: try makeModel(), storeTypes: StrataSubject.storeTypes)
        let store = try coordinator.addStore(
            type: "SQLite", at: storeURL, options: StoreOptions(tracksPersistentHistory: true))
        log("Filling a SQLite store of \(count) photos")
        var generator = SplitMix(seed: 2017)
        for first in stride(from: 0, to: count, by: photosPerInsert) {
            let objects = (first..<min(first + photosPerInsert, count)).map { _ -> [String: AttributeValue] in
                ["title": .string(words(3, &generator)), "caption": .string(words(12, &generator))]
            }
            _ = try coordinator.execute(BatchInsertRequest(entityName: "Photo", objects: objects))
        }

        log("Exporting \(count) photos to a fresh index, \(repetitions) times, and the same by hand")
        var exports: [(strata: Double, floor: Double)] = []
        var exporter: SearchIndexExporter?
        var floorIndex: RawSQLiteConnection?
        for repetition in 0...repetitions {
            let folder = try scratch.fresh("index-\(repetition % 2)")
            let current = try SearchIndexExporter(
                store: store, coordinator: coordinator, indexURL: folder.appendingPathComponent("photos.search"))
            let target = try openIndex(folder.appendingPathComponent("floor.search").path)
            let source = try RawSQLiteConnection(path: storeURL.path)
            // Whichever writes first pays for the other's pages written back: the order alternates.
            var strata = Duration.zero
            if repetition % 2 == 1 { strata = try clock { try current.exportPendingChanges() } }
            let floor = try clock {
                try exportByHand(from: source, storeIdentifier: store.identifier, to: target)
            }
            if repetition % 2 == 0 { strata = try clock { try current.exportPendingChanges() } }
            floorIndex = target
            if repetition > 0 { exports.append((strata.milliseconds, floor.milliseconds)) }
            exporter = current
        }
        guard let exporter, let floorIndex else { throw FloorError(description: "no export ran") }
        guard try exporter.index.count() == count else {
            throw FloorError(description: "the exporter indexed \(try exporter.index.count()) of \(count) photos")
        }

        let touched = max(count / 10, updatesPerSave)
        log("Updating \(touched) captions, then bringing both indexes up to date, \(repetitions) times")
        let context = ManagedObjectContext(coordinator: coordinator)
        let ids = try context.performAndWait {
            try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Photo"))
        }
        var updates: [(strata: Double, floor: Double)] = []
        for repetition in 0...repetitions {
            let chosen = (0..<touched).map { _ in ids[Int(generator.next(below: Int32(ids.count)))] }
            try context.performAndWait {
                for start in stride(from: 0, to: chosen.count, by: updatesPerSave) {
                    for id in chosen[start..<min(start + updatesPerSave, chosen.count)] {
                        try context.existingObject(with: id).setValue(
                            .string(words(12, &generator)), forKey: "caption")
                    }
                    try context.save()
                    context.reset()
                }
            }
            var strata = Duration.zero
            if repetition % 2 == 1 { strata = try clock { try exporter.exportPendingChanges() } }
            let keys = Array(Set(chosen)).map { id -> Int64 in
                guard case .integer(let key) = id.reference else { return 0 }
                return key
            }
            let source = try RawSQLiteConnection(path: storeURL.path)
            let floor = try clock {
                try updateByHand(keys, from: source, storeIdentifier: store.identifier, in: floorIndex)
            }
            if repetition % 2 == 0 { strata = try clock { try exporter.exportPendingChanges() } }
            if repetition > 0 { updates.append((strata.milliseconds, floor.milliseconds)) }
        }

        var lines = [
            line("first export of \(count) photos", exports),
            line("\(touched) updated photos brought up to date", updates),
        ]
        for terms in [1, 2] {
            let queries = (0..<queriesPerRun).map { _ in words(terms, &generator) }
            log("Running \(queriesPerRun) queries of \(terms) \(terms == 1 ? "term" : "terms"), \(repetitions) times")
            var times: [(strata: Double, floor: Double)] = []
            var hits = (strata: 0, floor: 0)
            for repetition in 0...repetitions {
                var found = (strata: 0, floor: 0)
                let strata = try clock {
                    for query in queries { found.strata += try exporter.search(query, limit: 20).count }
                }
                let floor = try clock { found.floor = try searchByHand(queries, in: floorIndex) }
                if repetition > 0 {
                    times.append(
                        (strata.milliseconds / Double(queriesPerRun), floor.milliseconds / Double(queriesPerRun)))
                }
                hits = found
            }
            guard hits.strata == hits.floor else {
                throw FloorError(description: "the exporter's index found \(hits.strata) hits, the floor \(hits.floor)")
            }
            lines.append(line("query of \(terms) \(terms == 1 ? "term" : "terms") (per query, limit 20)", times))
        }
        return lines
    }

    /// `count` words of the vocabulary, drawn by `generator`.
    private static func words(_ count: Int, _ generator: inout SplitMix) -> String {
        (0..<count).map { _ in vocabulary[Int(generator.next(below: Int32(vocabulary.count)))] }.joined(separator: " ")
    }

    /// One line of the report: the median of each side and their ratio.
    private static func line(_ name: String, _ times: [(strata: Double, floor: Double)]) -> String {
        let strata = times.map(\.strata).sorted()[times.count / 2]
        let floor = times.map(\.floor).sorted()[times.count / 2]
        return String(format: "%@: Strata %.2f ms, FTS5 by hand %.2f ms, × %.2f", name, strata, floor, strata / floor)
    }

    /// Opens the floor's index at `path` with the same tables as a search index.
    private static func openIndex(_ path: String) throws -> RawSQLiteConnection {
        let index = try RawSQLiteConnection(path: path)
        try index.execute(
            """
            CREATE VIRTUAL TABLE IF NOT EXISTS entries USING fts5(
                title, text, keywords, tokenize = 'unicode61 remove_diacritics 2');
            CREATE TABLE IF NOT EXISTS objects (entry INTEGER PRIMARY KEY, uri TEXT NOT NULL UNIQUE, entity TEXT NOT NULL);
            """)
        return index
    }

    /// Reads every photo from the store with SQL and inserts its entry into a new index, 500
    /// photos per transaction, as the exporter batches them (its statements prepared inside
    /// the timing, as the exporter's are).
    private static func exportByHand(
        from source: RawSQLiteConnection, storeIdentifier: String, to index: RawSQLiteConnection
    ) throws {
        let read = try source.prepare("SELECT Z_PK, ZTITLE, ZCAPTION FROM ZPHOTO ORDER BY Z_PK")
        let entry = try index.prepare("INSERT INTO entries (title, text, keywords) VALUES (?, ?, '')")
        let object = try index.prepare(
            "INSERT INTO objects (entry, uri, entity) VALUES (last_insert_rowid(), ?, 'Photo')")
        var batched = 0
        try index.execute("BEGIN")
        while try read.step() {
            let title = read.string(1)
            entry.bind(1, title)
            entry.bind(2, title + "\n" + read.string(2))
            _ = try entry.step()
            entry.reset()
            object.bind(1, "x-strata://\(storeIdentifier)/Photo/p\(read.int64(0))")
            _ = try object.step()
            object.reset()
            batched += 1
            if batched == 500 {
                try index.execute("COMMIT; BEGIN")
                batched = 0
            }
        }
        try index.execute("COMMIT")
    }

    /// Reads the photos `keys` from the store with SQL and replaces their entries, 500 per
    /// transaction.
    private static func updateByHand(
        _ keys: [Int64], from source: RawSQLiteConnection, storeIdentifier: String, in index: RawSQLiteConnection
    ) throws {
        let read = try source.prepare("SELECT ZTITLE, ZCAPTION FROM ZPHOTO WHERE Z_PK = ?")
        let find = try index.prepare("SELECT entry FROM objects WHERE uri = ?")
        let remove = try index.prepare("DELETE FROM entries WHERE rowid = ?")
        let insert = try index.prepare("INSERT INTO entries (title, text, keywords) VALUES (?, ?, '')")
        let point = try index.prepare("UPDATE objects SET entry = last_insert_rowid() WHERE uri = ?")
        try index.execute("BEGIN")
        for (number, key) in keys.enumerated() {
            if number > 0, number % 500 == 0 { try index.execute("COMMIT; BEGIN") }
            read.bind(1, key)
            guard try read.step() else { throw FloorError(description: "photo \(key) is missing") }
            let title = read.string(0)
            let text = title + "\n" + read.string(1)
            read.reset()
            let uri = "x-strata://\(storeIdentifier)/Photo/p\(key)"
            find.bind(1, uri)
            guard try find.step() else { throw FloorError(description: "photo \(key) has no entry") }
            remove.bind(1, find.int64(0))
            find.reset()
            _ = try remove.step()
            remove.reset()
            insert.bind(1, title)
            insert.bind(2, text)
            _ = try insert.step()
            insert.reset()
            point.bind(1, uri)
            _ = try point.step()
            point.reset()
        }
        try index.execute("COMMIT")
    }

    /// Runs `queries` against the floor's index with the search index's own statement (prepared
    /// each time: the index caches its), reading every column of every hit; returns how many
    /// hits there were.
    private static func searchByHand(_ queries: [String], in index: RawSQLiteConnection) throws -> Int {
        let search = try index.prepare(
            """
            SELECT objects.uri, objects.entity, entries.title,
                snippet(entries, -1, '[', ']', '…', 12), bm25(entries, 10.0, 1.0, 5.0)
            FROM entries JOIN objects ON objects.entry = entries.rowid
            WHERE entries MATCH ? ORDER BY bm25(entries, 10.0, 1.0, 5.0) LIMIT 20
            """)
        var hits = 0
        for query in queries {
            search.bind(1, query)
            while try search.step() {
                _ = (search.string(0), search.string(1), search.string(2), search.string(3), search.double(4))
                hits += 1
            }
            search.reset()
        }
        return hits
    }
}

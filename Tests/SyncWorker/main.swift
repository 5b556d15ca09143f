import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataSync
import StrataXML

// One replica of SyncConvergenceTests, in a process of its own that the test kills at random:
//
// - `SyncWorker id STORE TYPE` makes the replica's store and prints its replica ID;
// - `SyncWorker run STORE TYPE SERVER TOKEN NUMBER STEPS LOG` makes random edits — inserts, value
//   changes, reference changes, books put at random places among an author's ordered books,
//   deletions, tags made under one of a few unique labels (which replicas that have not synced
//   yet make twice) — one save each, until LOG holds STEPS of them,
//   syncing through the sync server now and then. After each save it appends the step to LOG
//   (one JSON line: the string values it wrote, the objects it deleted), so a step in LOG is
//   an acknowledged save; before a save that deletes, it appends the step to LOG.attempts.
//   Started again after a kill, it carries on from LOG's count;
// - `SyncWorker finish STORE TYPE SERVER TOKEN OUT` syncs until nothing is left to push and
//   the hub's log is pulled to its end, then writes to OUT what the rules resolve and what the
//   store shows;
// - `SyncWorker model OUT` writes the replicas' model to OUT as JSON.
//
// Objects carry a `serial` set when they are made and never changed ("r<NUMBER>-<step>.<start>"),
// by which the test tells them apart across replicas and the hub's log.

let model: ManagedObjectModel = {
    let app = ManagedObjectModel {
        EntityDescription("Author") {
            AttributeDescription("serial", .string)
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "author", ordered: true)
        }
        EntityDescription("Book") {
            AttributeDescription("serial", .string)
            AttributeDescription("title", .string)
            AttributeDescription("pages", .integer32, default: 0)
            RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            RelationshipDescription.toOne("tag", destination: "Tag", inverse: "books")
        }
        EntityDescription("Tag") {
            AttributeDescription("serial", .string)
            AttributeDescription("label", .string)
            AttributeDescription("note", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "tag", deleteRule: .cascade)
            UniquenessConstraint("label")
        }
    }
    let model = try! SyncModel.replicaModel(for: app)
    try? model.freeze()
    return model
}()

let types: [String: StoreType] = ["SQLite": .sqlite, "XML": .xml, "LMDB": .lmdb, "Binary": .binary]

/// One acknowledged save, as LOG keeps it.
struct Step: Codable {
    /// `[serial, key, value]` of each string written.
    var writes: [[String]] = []
    /// The serials of the objects deleted: one, and those its cascade rules deleted.
    var deleted: [String] = []
}

/// What `finish` writes.
struct Final: Codable {
    var replica: ReplicaID
    var resolved: [GlobalID: ResolvedObject]
    var dump: [String]
}

func open(_ path: String, _ typeName: String) throws -> PersistentStoreCoordinator {
    guard let type = types[typeName] else { throw CocoaError(.featureUnsupported) }
    let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [type])
    try coordinator.addStore(
        type: type.name, at: URL(fileURLWithPath: path), options: StoreOptions(tracksPersistentHistory: true))
    return coordinator
}

func engine(_ coordinator: PersistentStoreCoordinator, server: String, token: String) throws -> SyncEngine {
    guard let url = URL(string: server) else { throw CocoaError(.fileReadInvalidFileName) }
    return try SyncEngine(coordinator: coordinator, hub: HTTPHub(server: url, hub: "main", token: token))
}

func text(_ value: AttributeValue) -> String {
    switch value {
    case .string(let text): text
    case .integer32(let number): "\(number)"
    default: "-"
    }
}

/// A random object of `entity`, or `nil` when there is none.
func randomObject(_ entity: String, in context: ManagedObjectContext, _ random: inout SystemRandomNumberGenerator)
    throws -> ManagedObject?
{
    var request = FetchRequest<ManagedObject>(entityName: entity)
    let count = try context.count(for: request)
    guard count > 0 else { return nil }
    request.fetchOffset = Int.random(in: 0..<count, using: &random)
    request.fetchLimit = 1
    return try context.fetch(request).first
}

/// The tag labelled `label` in `context`, if there is one.
func tag(labelled label: String, in context: ManagedObjectContext) throws -> ManagedObject? {
    var request = FetchRequest<ManagedObject>(entityName: "Tag")
    request.predicate = .comparison(ComparisonPredicate(.keyPath("label"), .equalTo, .constant(.string(label))))
    return try context.fetch(request).first
}

/// One of the few labels tags are made under, so that replicas make the same one while apart.
func randomLabel(_ random: inout SystemRandomNumberGenerator) -> String {
    "tag-\(Int.random(in: 0..<12, using: &random))"
}

/// One random edit, not saved yet; what it writes.
func edit(_ context: ManagedObjectContext, serial: String, _ random: inout SystemRandomNumberGenerator) throws -> Step {
    var step = Step()
    let entities = ["Author", "Book", "Tag"]
    let population = try entities.reduce(0) {
        $0 + (try context.count(for: FetchRequest<ManagedObject>(entityName: $1)))
    }
    // Deletions grow with the population, so that it stays near 200 objects.
    let deleteChance = min(0.45, Double(population) / 450)
    let roll = Double.random(in: 0..<1, using: &random)
    func write(_ object: ManagedObject, _ key: String, _ value: String) throws {
        try object.setValue(.string(value), forKey: key)
        step.writes.append([text(try object.value(forKey: "serial")), key, value])
    }
    // One save in six puts a book at a random place among an author's ordered books: moved
    // there from another author, or within them.
    if Int.random(in: 0..<6, using: &random) == 0, let author = try randomObject("Author", in: context, &random),
        let book = try randomObject("Book", in: context, &random)
    {
        var books = try author.objects(forKey: "books").filter { $0 !== book }
        books.insert(book, at: Int.random(in: 0...books.count, using: &random))
        try author.setObjects(books, forKey: "books")
        return step
    }
    if roll < deleteChance,
        let victim = try randomObject(entities.randomElement(using: &random)!, in: context, &random)
    {
        step.deleted = [text(try victim.value(forKey: "serial"))]
        if victim.entity.name == "Tag" {
            step.deleted += try victim.objects(forKey: "books").map { text(try $0.value(forKey: "serial")) }
        }
        try context.delete(victim)
    } else if roll < deleteChance + 0.08 {
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue(.string(serial), forKey: "serial")
        try write(author, "name", "name \(serial)")
    } else if roll < deleteChance + 0.3 {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue(.string(serial), forKey: "serial")
        try write(book, "title", "title \(serial)")
        try book.setValue(.integer32(Int32.random(in: 1...900, using: &random)), forKey: "pages")
        try book.setObject(try randomObject("Author", in: context, &random), forKey: "author")
        try book.setObject(try randomObject("Tag", in: context, &random), forKey: "tag")
    } else if roll < deleteChance + 0.4 {
        let label = randomLabel(&random)
        if let existing = try tag(labelled: label, in: context) {
            try write(existing, "note", "note \(serial)")
        } else {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue(.string(serial), forKey: "serial")
            try write(tag, "label", label)
            try write(tag, "note", "note \(serial)")
        }
    } else if roll < deleteChance + 0.65 {
        guard let object = try randomObject(entities.randomElement(using: &random)!, in: context, &random)
        else { return step }
        switch object.entity.name {
        case "Author": try write(object, "name", "name \(serial)")
        case "Tag":
            let label = randomLabel(&random)
            if Bool.random(using: &random), try tag(labelled: label, in: context) == nil {
                try write(object, "label", label)
            } else {
                try write(object, "note", "note \(serial)")
            }
        default:
            if Bool.random(using: &random) {
                try write(object, "title", "title \(serial)")
            } else {
                try object.setValue(.integer32(Int32.random(in: 1...900, using: &random)), forKey: "pages")
            }
        }
    } else if let book = try randomObject("Book", in: context, &random) {
        let key = Bool.random(using: &random) ? "author" : "tag"
        let target =
            Bool.random(using: &random)
            ? try randomObject(key == "author" ? "Author" : "Tag", in: context, &random) : nil
        try book.setObject(target, forKey: key)
    }
    return step
}

func dump(_ coordinator: PersistentStoreCoordinator) throws -> [String] {
    let context = ManagedObjectContext(coordinator: coordinator)
    return try context.performAndWait {
        let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).map { book in
            let author = try book.object(forKey: "author").map { text(try $0.value(forKey: "serial")) } ?? "nobody"
            let tag = try book.object(forKey: "tag").map { text(try $0.value(forKey: "serial")) } ?? "nothing"
            return "Book \(text(try book.value(forKey: "serial"))) \(text(try book.value(forKey: "title"))) "
                + "\(text(try book.value(forKey: "pages"))) by \(author) tagged \(tag)"
        }
        let tags = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).map { tag in
            let serials = try tag.objects(forKey: "books").map { text(try $0.value(forKey: "serial")) }.sorted()
            return "Tag \(text(try tag.value(forKey: "serial"))) \(text(try tag.value(forKey: "label"))) "
                + "\(text(try tag.value(forKey: "note"))) on \(serials)"
        }
        let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).map { author in
            // In their order: an author's books are ordered.
            let serials = try author.objects(forKey: "books").map { text(try $0.value(forKey: "serial")) }
            return "Author \(text(try author.value(forKey: "serial"))) \(text(try author.value(forKey: "name"))) "
                + "of \(serials)"
        }
        return (books + authors + tags).sorted()
    }
}

func run(_ arguments: [String]) async throws {
    switch (arguments.first, arguments.count) {
    case ("model", 2):
        try model.jsonData().write(to: URL(fileURLWithPath: arguments[1]))
    case ("id", 3):
        print(try SyncEngine.replicaID(in: try open(arguments[1], arguments[2])))
    case ("run", 8):
        guard let replicaNumber = Int(arguments[5]), let steps = Int(arguments[6]) else {
            throw CocoaError(.formatting)
        }
        let coordinator = try open(arguments[1], arguments[2])
        let sync = try engine(coordinator, server: arguments[3], token: arguments[4])
        let logURL = URL(fileURLWithPath: arguments[7])
        if !FileManager.default.fileExists(atPath: logURL.path) {
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        let done = try String(contentsOf: logURL, encoding: .utf8).split(separator: "\n").count
        let log = try FileHandle(forWritingTo: logURL)
        try log.seekToEnd()
        var random = SystemRandomNumberGenerator()
        let context = ManagedObjectContext(coordinator: coordinator)
        // A kill between a save and its line in LOG leaves a save LOG does not know: its
        // deletions go to ATTEMPTS first, and each start gives its objects serials of their own.
        let attempts = URL(fileURLWithPath: arguments[7] + ".attempts")
        if !FileManager.default.fileExists(atPath: attempts.path) {
            _ = FileManager.default.createFile(atPath: attempts.path, contents: nil)
        }
        let attemptLog = try FileHandle(forWritingTo: attempts)
        try attemptLog.seekToEnd()
        let start = UInt32.random(in: 0...UInt32.max, using: &random)
        for number in done..<steps {
            let step = try context.performAndWait {
                try context.refreshAllObjects()
                let step = try edit(context, serial: "r\(replicaNumber)-\(number).\(start)", &random)
                if !step.deleted.isEmpty {
                    try attemptLog.write(contentsOf: try JSONEncoder().encode(step) + Data("\n".utf8))
                }
                try context.save()
                return step
            }
            try log.write(contentsOf: try JSONEncoder().encode(step) + Data("\n".utf8))
            if Double.random(in: 0..<1, using: &random) < 0.05 { try? await sync.syncNow() }
        }
        try? await sync.syncNow()
    case ("finish", 6):
        let coordinator = try open(arguments[1], arguments[2])
        let sync = try engine(coordinator, server: arguments[3], token: arguments[4])
        var failures = 0
        while true {
            do {
                try await sync.syncNow()
                if try await sync.status().pendingPushes == 0 { break }
            } catch {
                failures += 1
                if failures > 100 { throw error }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        let final = Final(replica: sync.replica, resolved: await sync.resolvedObjects(), dump: try dump(coordinator))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(final).write(to: URL(fileURLWithPath: arguments[5]))
    default:
        FileHandle.standardError.write(
            Data(
                ("usage: SyncWorker id STORE TYPE | run STORE TYPE SERVER TOKEN NUMBER STEPS LOG | "
                    + "finish STORE TYPE SERVER TOKEN OUT | model OUT\n").utf8))
        exit(2)
    }
}

do {
    try await run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
    exit(1)
}

import Foundation
import Strata

/// N: damaged, foreign and unreadable files give typed errors and stay untouched.
///
/// Each check puts a bad file where the store's file goes, reads its metadata without opening
/// it, then opens it and reads every object (see ``BadFileProbe``). Reading the metadata may
/// succeed or throw a `StoreError` with one of ``BadFileProbe/acceptedCodes``; opening and
/// reading must throw such an error, except after random byte flips, which a store without
/// checksums cannot always notice: there, opening may also succeed, as long as every object
/// can be read. Nothing else may be thrown, the process must not crash, and afterwards the file
/// must be byte for byte what it was, with no file added or removed beside it.
enum BadFileChecks {
    static var all: [ConformanceCheck] {
        [
            truncatedToOneByte, truncatedInHeader, truncatedToHalf, truncatedLastBytes, byteFlips, byteFlipsInHeader,
            randomBytesSmall, randomBytesPage, randomBytesLarge, foreignSQLite, foreignLMDB, foreignXML,
            foreignBinary, foreignJSON, directory, noPermission, newerFormatVersion,
        ]
    }

    private static let category = ConformanceCategory.badFiles

    static let truncatedToOneByte = category.check(
        "truncated.oneByte", "A store file cut to its first byte gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectTruncationRefused(harness) { _ in 1 }
    }

    static let truncatedInHeader = category.check(
        "truncated.header", "A store file cut to its first 24 bytes gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectTruncationRefused(harness) { min(24, $0 / 2) }
    }

    static let truncatedToHalf = category.check(
        "truncated.half", "A store file cut to half its length gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectTruncationRefused(harness) { $0 / 2 }
    }

    static let truncatedLastBytes = category.check(
        "truncated.lastBytes", "A store file missing its last 512 bytes gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectTruncationRefused(harness) { $0 - min(512, $0 / 4) }
    }

    static let byteFlips = category.check(
        "byteFlips", "A store file with random bytes flipped gives a typed error or opens with every object readable.",
        requires: .fileStorage
    ) { harness in
        try expectFlipsSurvived(harness) { $0 }
    }

    static let byteFlipsInHeader = category.check(
        "byteFlips.header",
        "A store file with bytes flipped in its first 100 gives a typed error or opens with every object readable.",
        requires: .fileStorage
    ) { harness in
        try expectFlipsSurvived(harness) { min($0, 100) }
    }

    static let randomBytesSmall = category.check(
        "randomBytes.small", "A file of 100 random bytes gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectRandomBytesRefused(harness, count: 100)
    }

    static let randomBytesPage = category.check(
        "randomBytes.page", "A file of 4,096 random bytes gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectRandomBytesRefused(harness, count: 4_096)
    }

    static let randomBytesLarge = category.check(
        "randomBytes.large", "A file of 256 KB of random bytes gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        try expectRandomBytesRefused(harness, count: 262_144)
    }

    static let foreignSQLite = foreignCheck("sqlite", .sqlite)
    static let foreignLMDB = foreignCheck("lmdb", .lmdb)
    static let foreignXML = foreignCheck("xml", .xml)
    static let foreignBinary = foreignCheck("binary", .binary)

    static let foreignJSON = category.check(
        "foreign.json", "A JSON document that is no store gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try ForeignStoreFile.json.bytes.write(to: url)
        try expectRefused(harness, url, ForeignStoreFile.json.description)
    }

    static let directory = category.check(
        "directory", "A folder where the store's file should be gives a typed error and stays as it is.",
        requires: .fileStorage
    ) { harness in
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try ForeignStoreFile.json.bytes.write(to: url.appendingPathComponent("inside"))
        let inside = try FileManager.default.contentsOfDirectory(atPath: url.path)
        try expectRefused(harness, url, "a folder")
        try expectEqual(
            try FileManager.default.contentsOfDirectory(atPath: url.path), inside,
            "The contents of the folder at \(url.path)")
    }

    static let noPermission = category.check(
        "noPermission",
        "A store file its user may not read gives a typed error, in a worker without root privileges, and stays as it is.",
        requires: .all([.fileStorage, .workerExecutable])
    ) { harness in
        let url = try writeStore(harness)
        let worker = try require(harness.suite.workerExecutable, "The suite has no worker executable.")
        let before = try FileSnapshot(of: url, in: harness.directory)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
        let ending: WorkerProcess.Ending
        do {
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
            ending = try WorkerProcess(executable: worker, arguments: ["open", url.path]).finish()
        }
        try expect(
            !ending.wasSignalled && ending.status == 0, "Opening the unreadable file, the worker \(ending.summary).")
        let lines = ending.remainingLines
        if let setup = lines.first(where: { $0.hasPrefix("setup ") }) {
            throw CheckFailure("The worker could not set up the unreadable file: \(setup.dropFirst("setup ".count))")
        }
        func outcome(_ prefix: String) throws -> BadFileProbe.Outcome {
            let line = try require(
                lines.first { $0.hasPrefix(prefix + " ") }, "The worker reported no '\(prefix)' line: \(lines).")
            return try require(
                BadFileProbe.Outcome(line: String(line.dropFirst(prefix.count + 1))),
                "Unreadable worker line '\(line)'.")
        }
        try expectAccepted(
            metadata: try outcome("metadata"), open: try outcome("open"), strict: true, "an unreadable store file")
        try before.expectUnchanged("an unreadable store file")
    }

    static let newerFormatVersion = category.check(
        "newerFormatVersion",
        "A store file marked as written by a newer format version gives a typed error and stays as it is.",
        requires: .newerFormatVersion
    ) { harness in
        let url = try writeStore(harness)
        let mark = try require(harness.suite.markNewerFormatVersion, "The suite cannot mark a newer format version.")
        try mark(url)
        try expectRefused(harness, url, "a store file of a newer format version")
    }

    /// A check that the store refuses `file`, skipped for the store type that writes it.
    private static func foreignCheck(_ name: String, _ file: ForeignStoreFile) -> ConformanceCheck {
        category.check(
            "foreign.\(name)",
            "A file of another store type (\(file.description)) gives a typed error and stays as it is.",
            requires: .storeTypeOtherThan(file.storeTypeName)
        ) { harness in
            let url = try require(harness.storeURL(), "File storage has no store URL.")
            try file.bytes.write(to: url)
            try expectRefused(harness, url, file.description)
        }
    }

    /// Saves a store of samples, people, teams and user keys, big enough to span several pages,
    /// closes it, and returns its URL.
    private static func writeStore(_ harness: CheckHarness) throws -> URL {
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        var random = SeededGenerator(seed: harness.seed)
        try harness.withStore { stack in
            for serial in 1...40 {
                try stack.insert(
                    ConformanceModel.sample,
                    [
                        "serial": .integer64(Int64(serial)),
                        "string": .string("sample \(serial) ✓ " + String(repeating: "x", count: serial)),
                        "double": .double(Double(serial) / 3),
                        "date": .date(Date(timeIntervalSinceReferenceDate: Double(serial) * 1e5)),
                        "binary": .binary(Data((0..<256).map { _ in UInt8.random(in: 0...255, using: &random) })),
                    ])
            }
            let team = try stack.insert("Team", ["serial": 1, "name": "Engines"])
            let people = try (1...6).map { serial in
                try stack.insert("Person", ["serial": .integer64(Int64(serial)), "name": .string("Person \(serial)")])
            }
            try stack.run {
                for (index, person) in people.enumerated() {
                    try person.setObject(team, forKey: "team")
                    try person.addObject(people[(index + 1) % people.count], forKey: "friends")
                }
            }
            try stack.save()
            try stack.coordinator.setUserInfo(["owner": "Ada", "revision": .integer64(3)], for: stack.store)
        }
        let size = try Data(contentsOf: url).count
        try expect(size > 1_024, "The saved store at \(url.path) holds only \(size) bytes.")
        return url
    }

    /// Cuts a saved store file to the length `length` gives for its full length, and expects
    /// the store to refuse it.
    private static func expectTruncationRefused(_ harness: CheckHarness, length: (Int) -> Int) throws {
        let url = try writeStore(harness)
        let bytes = try Data(contentsOf: url)
        let kept = length(bytes.count)
        try bytes.prefix(kept).write(to: url)
        try expectRefused(harness, url, "the store file cut to \(kept) of its \(bytes.count) bytes")
    }

    /// Flips random bytes of a saved store file, in the range `range` gives for its length,
    /// twelve times over (one to four bytes each), and expects a typed error or a store whose
    /// every object reads.
    private static func expectFlipsSurvived(_ harness: CheckHarness, range: (Int) -> Int) throws {
        let url = try writeStore(harness)
        let original = try Data(contentsOf: url)
        for round in 1...12 {
            var bytes = original
            var flipped: [Int] = []
            for _ in 0..<Int.random(in: 1...4, using: &harness.random) {
                let offset = Int.random(in: 0..<range(bytes.count), using: &harness.random)
                bytes[offset] ^= UInt8.random(in: 1...255, using: &harness.random)
                flipped.append(offset)
            }
            try bytes.write(to: url)
            try expectRefused(
                harness, url, "the store file with bytes flipped at offsets \(flipped.sorted()) (round \(round))",
                strict: false)
        }
    }

    /// Writes `count` seeded random bytes where the store's file goes and expects the store to refuse them.
    private static func expectRandomBytesRefused(_ harness: CheckHarness, count: Int) throws {
        let url = try require(harness.storeURL(), "File storage has no store URL.")
        try Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &harness.random) }).write(to: url)
        try expectRefused(harness, url, "a file of \(count) random bytes (seed \(harness.seed))")
    }

    /// Probes the bad file at `url` in this process: opening must throw an accepted
    /// `StoreError` (or, unless `strict`, succeed with every object read), and the file and its
    /// folder must be unchanged. Unless `strict`, the file may open and then fail on a damaged
    /// object, so the store's documented side files (an LMDB store's record of its page check)
    /// may be made.
    private static func expectRefused(_ harness: CheckHarness, _ url: URL, _ what: String, strict: Bool = true) throws {
        let before = try FileSnapshot(of: url, in: harness.directory)
        let probe = BadFileProbe(storeType: harness.suite.storeType, options: harness.suite.options)
        let metadata = probe.readMetadata(at: url)
        let open = probe.open(url)
        try expectAccepted(metadata: metadata, open: open, strict: strict, what)
        try before.expectUnchanged(what, allowingSideFiles: strict ? [] : harness.suite.documentedSideFiles ?? [])
    }

    private static func expectAccepted(
        metadata: BadFileProbe.Outcome, open: BadFileProbe.Outcome, strict: Bool, _ what: String
    ) throws {
        if case .otherError = metadata {
            throw CheckFailure(
                "Reading the metadata of \(what) must give metadata or a StoreError with one of the codes "
                    + "\(BadFileProbe.acceptedCodesText), but threw \(metadata.summary)")
        }
        if open.isAcceptedError { return }
        if !strict, case .succeeded = open { return }
        throw CheckFailure(
            "Opening \(what) and reading every object must throw a StoreError with one of the codes "
                + "\(BadFileProbe.acceptedCodesText)\(strict ? "" : " or succeed"), but \(open.summary)")
    }
}

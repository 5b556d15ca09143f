import CStrataSQLite
import Foundation
import StrataTestSupport
import Testing

@testable import StrataSQLite

@Suite struct SQLiteConnectionTests {
    let folder: TemporaryDirectory
    let connection: SQLiteConnection

    init() throws {
        folder = try TemporaryDirectory()
        connection = try SQLiteConnection(path: folder.file("db.sqlite").path, mode: .readWriteCreate)
        try connection.execute(script: "CREATE TABLE T (id INTEGER PRIMARY KEY, v)")
    }

    private func roundTrip(_ value: SQLiteValue) throws -> SQLiteValue {
        try connection.cachedStatement("DELETE FROM T").execute()
        try connection.cachedStatement("INSERT INTO T (id, v) VALUES (1, ?1)").execute([value])
        return try connection.cachedStatement("SELECT v FROM T").rows { $0.value(at: 0) }[0]
    }

    @Test(arguments: [
        SQLiteValue.null, .integer(.min), .integer(.max), .integer(0), .real(.pi), .real(.infinity),
        .real(-.infinity), .real(.leastNonzeroMagnitude), .text(""), .text("a\u{0}b"), .text("e\u{301} 🇳🇴 שלום"),
        .blob([]), .blob(Array(0...255)),
    ])
    func everyStorageClassRoundTrips(_ value: SQLiteValue) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test func negativeZeroKeepsItsSignInAColumnWithoutAffinity() throws {
        guard case .real(let number) = try roundTrip(.real(-0.0)) else {
            Issue.record("-0.0 did not come back as a REAL")
            return
        }
        #expect(number.sign == .minus)
    }

    @Test func anEmptyBlobIsNotNull() throws {
        #expect(try roundTrip(.blob([])) != .null)
    }

    @Test func cachedStatementsAreReused() throws {
        let first = try connection.cachedStatement("SELECT 1")
        let second = try connection.cachedStatement("SELECT 1")
        #expect(first === second)
        #expect(try connection.statement("SELECT 1") !== first)
    }

    @Test func aTransactionThatThrowsIsRolledBack() throws {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try connection.transaction {
                try connection.cachedStatement("INSERT INTO T (id, v) VALUES (?1, ?2)").execute([
                    .integer(1), .text("x"),
                ])
                throw Refused()
            }
        }
        #expect(try connection.cachedStatement("SELECT count(*) FROM T").rows { $0.value(at: 0) } == [.integer(0)])
        try connection.transaction {
            try connection.cachedStatement("INSERT INTO T (id, v) VALUES (?1, ?2)").execute([.integer(1), .text("x")])
        }
        #expect(try connection.cachedStatement("SELECT count(*) FROM T").rows { $0.value(at: 0) } == [.integer(1)])
    }

    @Test func aSyntaxErrorNamesTheStatement() throws {
        let error = try #require(throws: SQLiteError.self) { try connection.statement("SELEC 1") }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.sql == "SELEC 1")
        #expect(error.description.contains("syntax error"))
    }

    @Test func aConstraintViolationHasItsExtendedCode() throws {
        let insert = try connection.cachedStatement("INSERT INTO T (id, v) VALUES (1, 1)")
        try insert.execute()
        let error = try #require(throws: SQLiteError.self) { try insert.execute() }
        #expect(error.code == SQLITE_CONSTRAINT)
        #expect(
            error.extendedCode == SQLITE_CONSTRAINT | (6 << 8),
            "SQLITE_CONSTRAINT_PRIMARYKEY, a macro Swift cannot import")
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let url = folder.file("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: url)
        let other = try SQLiteConnection(path: url.path, mode: .readWrite)
        let error = try #require(throws: SQLiteError.self) { try other.execute(script: "SELECT * FROM sqlite_master") }
        #expect(error.isCorruption)
    }

    @Test func aMissingFileIsNotCreatedUnlessAsked() throws {
        let path = folder.file("missing.sqlite").path
        let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: path, mode: .readWrite) }
        #expect(error.code == SQLITE_CANTOPEN)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aReadOnlyConnectionRefusesWrites() throws {
        let reader = try SQLiteConnection(path: connection.path, mode: .readOnly)
        let error = try #require(throws: SQLiteError.self) {
            try reader.execute(script: "INSERT INTO T (id, v) VALUES (2, 2)")
        }
        #expect(error.code == SQLITE_READONLY)
    }

    @Test func aSecondWriterWaitsForTheBusyTimeoutThenReportsBusy() throws {
        let other = try SQLiteConnection(path: connection.path, mode: .readWrite, busyTimeoutMilliseconds: 20)
        try connection.execute(script: "BEGIN IMMEDIATE")
        defer { try? connection.execute(script: "ROLLBACK") }
        let error = try #require(throws: SQLiteError.self) { try other.execute(script: "BEGIN IMMEDIATE") }
        #expect(error.isBusy)
    }
}

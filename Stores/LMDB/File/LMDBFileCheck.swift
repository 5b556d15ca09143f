import Foundation
import Strata

/// Checks the pages of an LMDB data file before liblmdb maps it. liblmdb trusts its pages: a
/// truncated file or a damaged page header would make it read outside the file or the page
/// and stop the process. The check reads the file with ordinary reads and follows every page
/// the newest meta page reaches (the main database, each named database, the free list and
/// their overflow pages), so a file that passes cannot send liblmdb out of bounds.
///
/// The layout is liblmdb 0.9's for 64-bit machines (`mdb.c`): a 16-byte page header (page
/// number, flags, lower and upper bounds of the free space) then 2-byte node offsets; meta
/// pages 0 and 1 hold the magic, the format version, the page size and each database's root.
package struct LMDBFileCheck {
    private static let headerSize = 16
    private static let nodeHeaderSize = 8
    private static let databaseRecordSize = 48
    private static let invalidPage = UInt64.max
    /// The deepest tree liblmdb reads (its cursor stack, `CURSOR_STACK`): a deeper one is
    /// damage, and the check's recursion stays as shallow as liblmdb's.
    private static let deepestTree = 32
    /// `MDB_DUPSORT`, `MDB_DUPFIXED`, `MDB_INTEGERDUP`, `MDB_REVERSEDUP`: nodes of another shape.
    private static let duplicateFlags: UInt16 = 0x04 | 0x10 | 0x20 | 0x40
    /// `MDB_REVERSEKEY`, `MDB_INTEGERKEY`: keys in another order than their bytes'.
    private static let customOrderFlags: UInt16 = 0x02 | 0x08

    private enum PageFlag {
        static let branch: UInt16 = 0x01
        static let leaf: UInt16 = 0x02
        static let overflow: UInt16 = 0x04
        static let meta: UInt16 = 0x08
    }

    private enum NodeFlag {
        static let bigData: UInt16 = 0x01
        static let subDatabase: UInt16 = 0x02
    }

    private struct Database {
        var flags: UInt16
        var depth: UInt16
        var root: UInt64
    }

    /// One B-tree being walked.
    private struct Tree {
        var database: Database
        var name: String
        var isFreeList: Bool
        /// Whether keys sort by their bytes, so that their order can be checked.
        var isByteOrdered: Bool
        /// Whether the tree may hold named databases: only the main database does.
        var holdsNamedDatabases: Bool
    }

    private struct Meta {
        var pageSize: Int
        var free: Database
        var main: Database
        var lastPage: UInt64
        var transaction: UInt64
    }

    private let bytes: [UInt8]
    private let path: String
    private var pageSize = 0
    private var lastPage: UInt64 = 0
    /// One bit per page of the file, set once the walk has reached the page.
    private var visited: [UInt64] = []

    private init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// Checks the data file at `path`; returns the number of the newest committed transaction.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/corrupt` naming the page and what is
    ///   wrong with it; `StoreError/Code/io` when the file cannot be read.
    @discardableResult
    package static func check(path: String) throws -> UInt64 {
        let bytes: [UInt8]
        do {
            bytes = try LMDBFileReader.contents(of: path)
        } catch {
            throw StoreError(code: .io, message: "Could not read the LMDB store at '\(path)'.", underlying: error)
        }
        var check = LMDBFileCheck(bytes: bytes, path: path)
        return try check.run()
    }

    /// The number of the newest committed transaction its meta pages record.
    static func newestTransaction(path: String) throws -> UInt64 {
        var check = LMDBFileCheck(bytes: try LMDBFileReader.contents(of: path), path: path)
        let first = try check.meta(at: 0, index: 0)
        check.pageSize = first.pageSize
        return max(first.transaction, try check.meta(at: first.pageSize, index: 1).transaction)
    }

    private mutating func run() throws -> UInt64 {
        let first = try meta(at: 0, index: 0)
        pageSize = first.pageSize
        let second = try meta(at: pageSize, index: 1)
        guard second.pageSize == pageSize else {
            throw corrupt("its meta pages disagree on the page size (\(pageSize) and \(second.pageSize))")
        }
        let newest = second.transaction > first.transaction ? second : first
        lastPage = newest.lastPage
        let pages = newest.lastPage.addingReportingOverflow(1)
        let needed = pages.partialValue.multipliedReportingOverflow(by: UInt64(pageSize))
        guard !pages.overflow, !needed.overflow, needed.partialValue <= UInt64(bytes.count), newest.lastPage >= 1
        else {
            throw corrupt(
                "its meta page says it has \(newest.lastPage &+ 1) pages of \(pageSize) bytes, but the file holds "
                    + "\(bytes.count) bytes")
        }
        visited = Array(repeating: 0, count: Int(newest.lastPage / 64) + 1)
        try walk(newest.free, name: "the free list", isFreeList: true)
        try walk(newest.main, name: "the main database", isFreeList: false, holdsNamedDatabases: true)
        return newest.transaction
    }

    private func meta(at offset: Int, index: Int) throws -> Meta {
        guard offset >= 0, bytes.count >= offset + 152 else {
            throw corrupt("it is \(bytes.count) bytes long, too short for meta page \(index) of an LMDB file")
        }
        guard uint16(offset + 10) & PageFlag.meta != 0, uint32(offset + 16) == 0xBEEF_C0DE else {
            throw corrupt("page \(index) is not an LMDB meta page (no magic number)")
        }
        guard uint32(offset + 20) == 1 else {
            throw corrupt("meta page \(index) has LMDB data format \(uint32(offset + 20)); liblmdb 0.9 reads format 1")
        }
        let pageSize = Int(uint32(offset + 40))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw corrupt("meta page \(index) gives the page size \(pageSize)")
        }
        return Meta(
            pageSize: pageSize, free: databaseRecord(at: offset + 40), main: databaseRecord(at: offset + 88),
            lastPage: uint64(offset + 136), transaction: uint64(offset + 144))
    }

    private func databaseRecord(at offset: Int) -> Database {
        Database(flags: uint16(offset + 4), depth: uint16(offset + 6), root: uint64(offset + 40))
    }

    private mutating func walk(
        _ database: Database, name: String, isFreeList: Bool, holdsNamedDatabases: Bool = false
    ) throws {
        guard database.root != Self.invalidPage else { return }
        guard database.flags & Self.duplicateFlags == 0 else {
            throw corrupt("\(name) uses LMDB flags \(database.flags) for duplicate keys, which Strata stores never set")
        }
        guard database.depth >= 1, database.depth <= Self.deepestTree else {
            throw corrupt(
                "\(name) has the depth \(database.depth); liblmdb reads trees of 1 to \(Self.deepestTree) levels")
        }
        let tree = Tree(
            database: database, name: name, isFreeList: isFreeList,
            isByteOrdered: !isFreeList && database.flags & Self.customOrderFlags == 0,
            holdsNamedDatabases: holdsNamedDatabases)
        try walkPage(database.root, depth: 1, of: tree)
    }

    private mutating func walkPage(
        _ number: UInt64, depth: Int, of tree: Tree
    ) throws {
        let (database, name) = (tree.database, tree.name)
        let page = try claim(number, in: name)
        let flags = uint16(page + 10)
        let lower = Int(uint16(page + 12))
        let upper = Int(uint16(page + 14))
        guard flags == PageFlag.branch || flags == PageFlag.leaf else {
            throw corrupt("page \(number) of \(name) has the flags \(flags), not a branch or leaf page's")
        }
        guard depth <= Int(database.depth), lower >= Self.headerSize, lower & 1 == 0, lower <= upper,
            upper <= pageSize
        else { throw corrupt("page \(number) of \(name) has bad bounds (\(lower), \(upper)) at depth \(depth)") }
        let isLeaf = flags == PageFlag.leaf
        guard isLeaf == (depth == Int(database.depth)) else {
            throw corrupt("page \(number) of \(name) is at depth \(depth) of \(database.depth)")
        }
        let count = (lower - Self.headerSize) / 2
        // liblmdb collapses a branch page of one node (the free list's may keep one) and frees
        // an emptied leaf; it reads a page's first node without counting them.
        let fewest = isLeaf || tree.isFreeList ? 1 : 2
        guard count >= fewest else {
            throw corrupt(
                "page \(number) of \(name) is a\(isLeaf ? " leaf" : " branch") page of \(count) node"
                    + (count == 1 ? "" : "s") + "; liblmdb leaves none with fewer than \(fewest)")
        }
        var previousKey: Range<Int>?
        for index in 0..<count {
            let node = Int(uint16(page + Self.headerSize + 2 * index))
            func place() -> String { "node \(index) of page \(number) of \(name)" }
            guard node >= upper, node + Self.nodeHeaderSize <= pageSize else {
                throw corrupt("\(place()) starts at \(node), outside the page's nodes")
            }
            let start = page + node
            let nodeFlags = uint16(start + 4)
            let keySize = Int(uint16(start + 6))
            let keyEnd = node + Self.nodeHeaderSize + keySize
            guard keySize <= 511, keyEnd <= pageSize else { throw corrupt("\(place()) has a key of \(keySize) bytes") }
            let key = (start + Self.nodeHeaderSize)..<(page + keyEnd)
            if tree.isByteOrdered && !(index == 0 && !isLeaf) {
                if let previousKey, !keyPrecedes(previousKey, key) {
                    throw corrupt("the keys of page \(number) of \(name) are out of order at node \(index)")
                }
                previousKey = key
            }
            if !isLeaf {
                let child = UInt64(uint16(start)) | UInt64(uint16(start + 2)) << 16 | UInt64(nodeFlags) << 32
                try walkPage(child, depth: depth + 1, of: tree)
                continue
            }
            let dataSize = Int(uint16(start)) | Int(uint16(start + 2)) << 16
            switch nodeFlags {
            case 0:
                guard keyEnd + dataSize <= pageSize else { throw corrupt("\(place()) has \(dataSize) bytes of data") }
                if tree.isFreeList { try checkFreeList(page + keyEnd, size: dataSize, place()) }
            case NodeFlag.bigData:
                guard keyEnd + 8 <= pageSize else { throw corrupt("\(place()) is cut short") }
                try checkOverflow(uint64(page + keyEnd), size: dataSize, place(), isFreeList: tree.isFreeList)
            case NodeFlag.subDatabase:
                guard tree.holdsNamedDatabases, dataSize == Self.databaseRecordSize, keyEnd + dataSize <= pageSize
                else {
                    throw corrupt("\(place()) is a named database of \(dataSize) bytes")
                }
                let named = String(decoding: bytes[key], as: UTF8.self)
                try walk(databaseRecord(at: page + keyEnd), name: "database '\(named)'", isFreeList: false)
            default:
                throw corrupt("\(place()) has the node flags \(nodeFlags), which Strata stores never set")
            }
        }
    }

    private mutating func checkOverflow(
        _ number: UInt64, size: Int, _ place: @autoclosure () -> String, isFreeList: Bool
    ) throws {
        let page = try claim(number, in: place())
        let pages = UInt64(uint32(page + 12))
        guard uint16(page + 10) == PageFlag.overflow, pages >= 1, number + pages - 1 <= lastPage,
            size <= Int(pages) * pageSize - Self.headerSize
        else { throw corrupt("the overflow page \(number) of \(place()) is damaged") }
        for extra in 1..<pages where !markVisited(number + extra) {
            throw corrupt("page \(number + extra) is used twice")
        }
        if isFreeList { try checkFreeList(page + Self.headerSize, size: size, place()) }
    }

    /// A free-list record is a count of page numbers followed by them.
    private func checkFreeList(_ offset: Int, size: Int, _ place: @autoclosure () -> String) throws {
        guard size >= 8, size % 8 == 0, uint64(offset) == UInt64(size / 8 - 1) else {
            throw corrupt("\(place()) is a free-list record of \(size) bytes that does not add up")
        }
        for index in 1..<(size / 8) where uint64(offset + 8 * index) > lastPage {
            throw corrupt("\(place()) lists the free page \(uint64(offset + 8 * index)), past the last page")
        }
    }

    /// The offset of page `number`, which must exist and not have been reached before.
    private mutating func claim(_ number: UInt64, in place: @autoclosure () -> String) throws -> Int {
        guard number >= 2, number <= lastPage else { throw corrupt("\(place()) refers to page \(number)") }
        guard markVisited(number) else { throw corrupt("page \(number) is used twice") }
        let offset = Int(number) * pageSize
        guard uint64(offset) == number else { throw corrupt("page \(number) says it is page \(uint64(offset))") }
        return offset
    }

    /// Marks page `number` (at most ``lastPage``) as reached; false when it was reached before.
    private mutating func markVisited(_ number: UInt64) -> Bool {
        let (word, bit) = (Int(number / 64), UInt64(1) << (number % 64))
        guard visited[word] & bit == 0 else { return false }
        visited[word] |= bit
        return true
    }

    /// Whether the key in `first` sorts before the key in `second` in liblmdb's default order
    /// (bytes compared as unsigned, a prefix first). Both ranges lie inside the file.
    private func keyPrecedes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            let order = memcmp(base + first.lowerBound, base + second.lowerBound, min(first.count, second.count))
            return order < 0 || (order == 0 && first.count < second.count)
        }
    }

    private func corrupt(_ problem: String) -> StoreError {
        StoreError(code: .corrupt, message: "The file at '\(path)' is not a readable LMDB store: \(problem).")
    }

    private func uint16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }

    private func uint32(_ offset: Int) -> UInt32 { UInt32(uint16(offset)) | UInt32(uint16(offset + 2)) << 16 }

    private func uint64(_ offset: Int) -> UInt64 { UInt64(uint32(offset)) | UInt64(uint32(offset + 4)) << 32 }
}

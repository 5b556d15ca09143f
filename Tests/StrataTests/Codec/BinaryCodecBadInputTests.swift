import Foundation
@_spi(StoreAuthoring) import Strata
import Testing

@Suite struct BinaryCodecBadInputTests {
    static let encodedNode = BinaryRecord.encode(node: BinaryCodecFixtures.node)

    @Test func everyTruncationIsCorruptNamingAPosition() {
        let bytes = Self.encodedNode
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 997)) {
            expectCorrupt { _ = try BinaryRecord.decodeNode(Array(bytes[..<length]), source: "cut") }
            guard length >= 1, length < bytes.count - 4 else { continue }
            var reader = BinaryReader(Array(bytes[1..<length]), source: "cut")
            expectCorrupt { _ = try reader.readNode("the node") }
        }
    }

    @Test func everyFlippedByteFailsTheChecksum() {
        var bytes = Self.encodedNode
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let index = Int.random(in: bytes.indices, using: &random)
            let mask = UInt8.random(in: 1...255, using: &random)
            bytes[index] ^= mask
            expectCorrupt { _ = try BinaryRecord.decodeNode(bytes, source: "flipped") }
            bytes[index] ^= mask
        }
    }

    @Test func randomGarbageNeverTraps() {
        var random = SplitMix64(seed: 42)
        for round in 0..<3_000 {
            let count = Int.random(in: 0...(round % 10 == 0 ? 4_000 : 64), using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            expectCorrupt { _ = try BinaryRecord.decodeNode(bytes, source: "garbage") }
            for read in 0..<3 {
                var reader = BinaryReader(
                    bytes, source: "garbage",
                    context: BinaryCodingContext(homeStoreIdentifier: "S", entityNames: ["A"], propertyNames: ["p"]))
                do {
                    switch read {
                    case 0: _ = try reader.readNode("the node")
                    case 1: _ = try reader.readMetadata()
                    default: _ = try reader.readValue("the value")
                    }
                } catch let error as StoreError {
                    #expect(error.code == .corrupt)
                    #expect(error.message.contains("at byte"))
                } catch {
                    Issue.record("Garbage gave \(error), not a StoreError")
                }
            }
        }
    }

    @Test func recordWithCorrectChecksumButBadPayloadNamesThePosition() throws {
        var writer = BinaryWriter()
        writer.write(byte: BinaryRecord.formatVersion)
        writer.write(byte: 99)
        writer.write(fixed: CRC32C.checksum(writer.bytes))
        let error = try #require(throws: StoreError.self) {
            _ = try BinaryRecord.decodeValue(writer.bytes, source: "The record")
        }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("The record is damaged at byte 1"))
        #expect(error.message.contains("unknown type tag 99"))
    }

    @Test func newerVersionIsUnsupported() throws {
        var writer = BinaryWriter()
        writer.write(byte: BinaryRecord.formatVersion + 1)
        writer.write(byte: 0)
        writer.write(fixed: CRC32C.checksum(writer.bytes))
        let error = try #require(throws: StoreError.self) {
            _ = try BinaryRecord.decodeValue(writer.bytes, source: "The record")
        }
        #expect(error.code == .unsupported)
    }

    @Test func outOfRangeIntegerIsCorrupt() throws {
        var writer = BinaryWriter()
        writer.write(byte: 1)
        writer.write(signed: Int64(Int16.max) + 1)
        var reader = BinaryReader(writer.bytes, source: "The value")
        let error = try #require(throws: StoreError.self) { _ = try reader.readValue("v") }
        #expect(error.message.contains("16-bit"))
    }

    @Test func overlongVarintIsCorrupt() throws {
        var reader = BinaryReader([UInt8](repeating: 0xFF, count: 11) + [0], source: "The bytes")
        let error = try #require(throws: StoreError.self) { _ = try reader.readVarint("n") }
        #expect(error.message.contains("longer than a 64-bit integer"))
    }

    private func expectCorrupt(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("Bad bytes were read without an error", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            #expect(error.code == .corrupt, sourceLocation: sourceLocation)
            #expect(error.message.contains("at byte"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("Bad bytes gave \(error), not a StoreError", sourceLocation: sourceLocation)
        }
    }
}

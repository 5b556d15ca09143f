@_spi(StoreAuthoring) import Strata
import Testing

@Suite struct CRC32CTests {
    @Test func standardCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func emptyInputIsZero() {
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    @Test func updatingInPiecesMatchesOneGo() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var crc = CRC32C()
        crc.update(bytes[..<300])
        crc.update(bytes[300...])
        #expect(crc.value == CRC32C.checksum(bytes))
    }

    @Test func knownVectors() {
        // Thirty-two zero bytes and thirty-two 0xFF bytes, from RFC 3720, section B.4.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    }

    @Test func everyLengthAndStartMatchesTheBitwiseDefinition() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        let bytes = (0..<80).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        for start in 0..<9 {
            for end in start...bytes.count {
                #expect(CRC32C.checksum(bytes[start..<end]) == bitwise(bytes[start..<end]), "\(start)..<\(end)")
            }
        }
    }
}

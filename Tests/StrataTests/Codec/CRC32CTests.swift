import Strata
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
}

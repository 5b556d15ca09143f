/// The fixed parts of a binary store file (see `docs/BINARY-FORMAT.md`): a 24-byte header of
/// magic bytes, format version, flags, body length and the header's own CRC-32C; the body; and a
/// 4-byte trailer holding the CRC-32C of every byte before it.
public enum BinaryStoreFormat {
    /// The first 8 bytes of every binary store file: `0x89`, `STRBIN`, and a line feed. The high
    /// first byte and the line feed show up damage from text-mode transfers.
    public static let magic: [UInt8] = [0x89, 0x53, 0x54, 0x52, 0x42, 0x49, 0x4E, 0x0A]
    /// The version of the file format this build writes and the newest it reads.
    public static let version: UInt16 = 1
    /// The length of the header.
    public static let headerLength = 24
    /// The length of the trailer.
    public static let trailerLength = 4
    /// The offset of the format version in the header.
    public static let versionOffset = 8
    /// The offset of the header's checksum, which covers the bytes before it.
    public static let headerChecksumOffset = 20
}

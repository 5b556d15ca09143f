import Foundation

/// A small, valid file of another kind of store, which the store under test must refuse: the
/// bad-file checks (N) hand it one of each.
struct ForeignStoreFile: Sendable {
    /// The name of the store type that writes such files; the store type of that name is not
    /// checked with it.
    let storeTypeName: String
    /// What the file is, for failure messages.
    let description: String
    /// The file's bytes.
    let bytes: Data

    /// A file of `length` bytes, zero except for `runs` of bytes (offset, hexadecimal digits).
    private static func sparse(length: Int, _ runs: [(offset: Int, hex: String)]) -> Data {
        var bytes = Data(count: length)
        for run in runs {
            let digits = Array(run.hex.utf8)
            for index in stride(from: 0, to: digits.count, by: 2) {
                bytes[run.offset + index / 2] = UInt8(
                    String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)!
            }
        }
        return bytes
    }

    /// An SQLite 3 database of two 512-byte pages: a table `ZPERSON (Z_PK, ZNAME)` holding one
    /// row, as Python's `sqlite3` module wrote it.
    static let sqlite = ForeignStoreFile(
        storeTypeName: "SQLite", description: "an SQLite database",
        bytes: sparse(
            length: 1_024,
            [
                (0, "53514c69746520666f726d617420330002000101004020200000000200000002"),
                (43, "0100000004"),
                (59, "01"),
                (95, "02002e63010d0000000101a50001a5"),
                (
                    421,
                    "590107171b1b0181097461626c655a504552534f4e5a504552534f4e02435245415445205441424c45205a504552534f"
                        + "4e20285a5f504b20494e5445474552205052494d415259204b45592c205a4e414d452056415243484152290d00000001"
                        + "01f80001f8"
                ),
                (1016, "0601030013416461"),
            ]))

    /// The data file (`data.mdb`) of an LMDB environment with 4 KB pages whose main
    /// database holds the key `key` with the value `Ada`, as liblmdb 0.9 wrote it.
    static let lmdb = ForeignStoreFile(
        storeTypeName: "LMDB", description: "an LMDB data file",
        bytes: sparse(
            length: 12_288,
            [
                (10, "080000000000dec0efbe01"),
                (34, "1000000000000010000008"),
                (80, "ffffffffffffffff"),
                (128, "ffffffffffffffff01"),
                (4096, "01"),
                (4106, "080000000000dec0efbe01"),
                (4130, "1000000000000010000008"),
                (4176, "ffffffffffffffff00000000000001"),
                (4200, "01"),
                (4216, "01000000000000000200000000000000020000000000000001"),
                (8192, "02"),
                (8202, "02001200f20ff20f"),
                (12274, "03000000000003006b6579416461"),
            ]))

    /// A Core Data XML store document holding one object.
    static let xml = ForeignStoreFile(
        storeTypeName: "XML", description: "a Core Data XML store document",
        bytes: Data(
            """
            <?xml version="1.0"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>7C0B6E0C-4D4A-4E3B-9D55-6A4E1B7B2C01</UUID>
                    <nextObjectID>102</nextObjectID>
                    <metadata></metadata>
                </databaseInfo>
                <object type="PERSON" id="z101">
                    <attribute name="name" type="string">Ada</attribute>
                </object>
            </database>

            """.utf8))

    /// A binary property list in keyed-archive form, as Core Data's binary store writes,
    /// archiving one object of class `Person`; written by Python's `plistlib`.
    static let binary = ForeignStoreFile(
        storeTypeName: "Binary", description: "a binary keyed archive",
        bytes: Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGExZZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKj"
                + "BwgNVSRudWxs0gkKCwxWJGNsYXNzVG5hbWWAAlNBZGHSDg8QEVgkY2xhc3Nlc1okY2xhc3NuYW1lohESVlBlcnNvblhO"
                + "U09iamVjdNEUFVRyb290gAESAAGGoAgRGyQpMkRITlNaX2FlanN+gYiRlJmbAAAAAAAAAQEAAAAAAAAAFwAAAAAAAAAA"
                + "AAAAAAAAAKA=")!)

    /// A JSON document that is no store's: every store, a JSON one included, must refuse it.
    static let json = ForeignStoreFile(
        storeTypeName: "", description: "a JSON document",
        bytes: Data(#"{"people": [{"name": "Ada", "born": 1815}], "version": 1}"#.utf8))
}

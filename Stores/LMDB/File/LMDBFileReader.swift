import Foundation

/// Reads an LMDB data file into memory with ordinary reads, for ``LMDBFileCheck``.
enum LMDBFileReader {
    /// The bytes of the file at `path`, read straight into one array.
    ///
    /// - Throws: `CocoaError` when the file cannot be opened or read.
    static func contents(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw CocoaError(.fileReadUnknown) }
        let size = Int(status.st_size)
        guard size > 0 else { return [] }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let read = Foundation.read(descriptor, buffer.baseAddress.map { $0 + count }, size - count)
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    failed = read < 0
                    return
                }
                count += read
            }
        }
        guard !failed else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return bytes
    }
}

import CStrataZlib
import Foundation
import Strata

/// Inflates raw DEFLATE data (no zlib or gzip header), the form of the model an SQLite store
/// keeps in `Z_MODELCACHE`, with the system's zlib.
///
/// zlib's contract (zlib.h): `inflateInit2` with negative window bits reads raw DEFLATE;
/// `inflate` is called until it returns `Z_STREAM_END`, with more output space whenever it
/// fills what it was given; `inflateEnd` frees the stream's state.
enum RawDeflate {
    /// The largest output accepted: a model archive is a few hundred kilobytes; a stream that
    /// inflates past this is refused rather than allowed to exhaust memory.
    static let maximumOutput = 256 * 1024 * 1024

    /// The inflated bytes of `data`, which comes from `file`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile` naming `file` when the
    ///   data is not complete, valid raw DEFLATE, or inflates past ``maximumOutput``.
    static func inflate(_ data: Data, file: String) throws(ModelError) -> Data {
        var stream = z_stream()
        guard strata_inflate_init_raw(&stream) == Z_OK else { throw failure(file, "zlib could not start inflating") }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return CStrataZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                guard result == Z_OK, output.count <= maximumOutput else { return result }
                if stream.avail_in == 0 && stream.avail_out > 0 { return Z_BUF_ERROR }
            }
        }
        guard status == Z_STREAM_END else {
            if output.count > maximumOutput {
                throw failure(file, "it inflates to more than \(maximumOutput) bytes")
            }
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw failure(file, status == Z_BUF_ERROR ? "the compressed data ends early" : reason)
        }
        return output
    }

    private static func failure(_ file: String, _ reason: String) -> ModelError {
        ModelError(
            code: .malformedFile, message: "'\(file)': the compressed model cannot be inflated: \(reason).",
            filePath: file)
    }
}

import Foundation

/// A folder a store keeps beside its file, such as `.Model_SUPPORT/_EXTERNAL_DATA`, reached one
/// level at a time from the folder of the store's file without following symbolic links.
///
/// Stores travel as folders and archives, which can carry links: a link, or anything but a
/// folder, where a store expects a folder of its own is `corrupt`, and nothing it points to is
/// read, written or removed. The folder of the store's file itself is the caller's choice and
/// may be reached through links.
package struct StoreSideFolder: Sendable {
    /// The folder of the store's file.
    package let base: URL
    /// The levels below ``base``, outermost first.
    package let levels: [String]

    package init(base: URL, levels: [String]) {
        self.base = base
        self.levels = levels
    }

    /// The folder's path, for messages and for the caller's own checks.
    package var url: URL { levels.reduce(base) { $0.appendingPathComponent($1) } }

    /// The folder, opened; `nil` when a level is missing and `creating` is `false`. Levels that
    /// are created are flushed into their parents.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a level is a symbolic link or not a
    ///   folder, `io` when a level cannot be opened or created.
    package func open(creating: Bool) throws -> OpenFolder? {
        var current = Foundation.open(base.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else {
            if errno == ENOENT && !creating { return nil }
            throw OpenFolder.failure("open the folder", base.path)
        }
        var path = base
        for level in levels {
            path.appendPathComponent(level)
            var next = openat(current, level, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && creating {
                guard mkdirat(current, level, 0o755) == 0 || errno == EEXIST else {
                    let failure = OpenFolder.failure("create the folder", path.path)
                    close(current)
                    throw failure
                }
                fsync(current)
                next = openat(current, level, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let error = errno
            close(current)
            guard next >= 0 else {
                if error == ENOENT && !creating { return nil }
                throw Self.refusal(error, path.path)
            }
            current = next
        }
        return OpenFolder(descriptor: current, url: path)
    }

    /// The error for a level that `openat` refused with `error`.
    private static func refusal(_ error: Int32, _ path: String) -> StoreError {
        guard error == ELOOP || error == ENOTDIR else {
            errno = error
            return OpenFolder.failure("open the folder", path)
        }
        return StoreError(
            code: .corrupt,
            message: "'\(path)' is a symbolic link or not a folder, where a store keeps a folder of its own; "
                + "nothing it points to was read, written or removed.")
    }
}

/// An open folder (``StoreSideFolder/open(creating:)``): files are named relative to its
/// descriptor and never through symbolic links. Owns the descriptor and closes it when released.
package final class OpenFolder {
    private let descriptor: Int32
    /// The folder's path, for messages.
    package let url: URL

    fileprivate init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    deinit { close(descriptor) }

    /// The bytes of the regular file `name`, mapped rather than read.
    ///
    /// - Throws: ``StoreError`` with code `io` when the file is missing, unreadable, a symbolic
    ///   link or not a regular file.
    package func read(_ name: String) throws -> Data {
        // O_NONBLOCK: a FIFO planted under the name must not block the open.
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { throw Self.failure("open the file", path(of: name)) }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw Self.failure("read the file", path(of: name)) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(code: .io, message: "'\(path(of: name))' is not a regular file.")
        }
        let size = Int(status.st_size)
        guard size > 0 else { return Data() }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, file, 0), mapping != MAP_FAILED else {
            throw Self.failure("map the file", path(of: name))
        }
        return Data(bytesNoCopy: mapping, count: size, deallocator: .custom { munmap($0, $1) })
    }

    /// Whether the folder has an entry `name` (of any kind, links not followed).
    package func contains(_ name: String) -> Bool {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Writes `data` durably to the new file `name`: to the file `interim` first, flushed, then
    /// renamed into place and the folder flushed, so a crash leaves either no file or the whole
    /// one.
    package func write(_ data: Data, to name: String, through interim: String) throws {
        let file = openat(descriptor, interim, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Self.failure("create the file", path(of: interim)) }
        var written = 0
        let complete = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Foundation.write(file, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                written += result
            }
            return true
        }
        let flushed = complete && fsync(file) == 0
        let error = errno
        let closed = close(file) == 0
        guard flushed, closed, renameat(descriptor, interim, descriptor, name) == 0 else {
            // The error of the step that failed: the flush's, kept past `close`, or the rename's.
            if !flushed { errno = error }
            let failure = Self.failure("write the file", path(of: interim))
            unlinkat(descriptor, interim, 0)
            throw failure
        }
        flush()
    }

    /// Removes the entry `name` itself (a link is removed, not what it points to); a missing
    /// entry is not an error.
    package func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }

    /// The names of the folder's entries, without `.` and `..`.
    package func names() -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Flushes the folder's entries to disk.
    package func flush() {
        fsync(descriptor)
    }

    private func path(of name: String) -> String { url.appendingPathComponent(name).path }

    /// An `io` error for `action` on `path`, with `errno`'s text.
    fileprivate static func failure(_ action: String, _ path: String) -> StoreError {
        StoreError(code: .io, message: "Cannot \(action) '\(path)': \(String(cString: strerror(errno))).")
    }
}

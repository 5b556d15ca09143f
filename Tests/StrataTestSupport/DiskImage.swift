import Foundation

/// A small ext4 file system in an image file, loop-mounted on a folder of its own, for tests of
/// real disk faults: filled to its last block, saves meet `ENOSPC` from the kernel (at `write`,
/// and with delayed allocation at `fsync` and `close`); turned read-only by the kernel under
/// open files (as after an I/O error), they meet `EROFS`. An image made "thin", on storage
/// smaller than itself (a tmpfs), meets a third fault: when that storage runs out, writes into
/// the page cache still succeed, and the kernel's write-back fails under them, so `fsync`
/// reports the failure (ext4 gives `EIO`) and the file system turns read-only, as on a
/// thin-provisioned volume that runs out of space.
/// Needs root and `mkfs.ext4`; unmounted and removed when the value goes away.
public final class DiskImage {
    /// The mounted folder.
    public let folder: URL
    private let image: URL
    private let parent: TemporaryDirectory
    /// The tmpfs the image of a thin disk lives on; `nil` for an image in the temporary folder.
    private let storage: URL?

    /// Whether tests that need a disk image must fail when one cannot be made
    /// (`STRATA_REQUIRE_DISK_FAULTS=1`, as CI sets), rather than say so and pass.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["STRATA_REQUIRE_DISK_FAULTS"] == "1" }

    /// A mounted disk image for a test, or `nil` after saying why none can be made: through
    /// `fail` when one is required (``isRequired``), else on standard output.
    public static func forTest(
        megabytes: Int, storageMegabytes: Int? = nil, failing fail: (String) -> Void
    ) -> DiskImage? {
        do {
            return try DiskImage(megabytes: megabytes, storageMegabytes: storageMegabytes)
        } catch {
            if isRequired {
                fail("Real disk faults cannot be tested: \(error)")
            } else {
                print("Real disk faults not tested: \(error)")
            }
            return nil
        }
    }

    /// Makes and mounts a file system of `megabytes` MiB. When `storageMegabytes` is given, the image is thin: a sparse file on a tmpfs of that
    /// size, which ``exhaustStorage()`` fills.
    ///
    /// - Throws: ``Unavailable`` saying why when the process is not root or a command fails.
    public init(megabytes: Int, storageMegabytes: Int? = nil) throws {
        guard geteuid() == 0 else { throw Unavailable("the tests do not run as root, which mounting needs") }
        parent = try TemporaryDirectory()
        folder = parent.file("mounted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let storageMegabytes {
            let storage = parent.file("storage")
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            try Self.run("mount", ["-t", "tmpfs", "-o", "size=\(storageMegabytes)m", "tmpfs", storage.path])
            self.storage = storage
            image = storage.appendingPathComponent("disk.ext4")
        } else {
            storage = nil
            image = parent.file("disk.ext4")
        }
        guard FileManager.default.createFile(atPath: image.path, contents: nil),
            truncate(image.path, off_t(megabytes) << 20) == 0
        else { throw Unavailable("cannot make the image file '\(image.path)'") }
        try Self.run("mkfs.ext4", ["-q", "-F", "-m", "0", image.path])
        try mount()
    }

    private func mount() throws {
        try Self.run("mount", ["-o", "loop,errors=remount-ro", image.path, folder.path])
    }

    deinit {
        _ = try? Self.run("umount", [folder.path])
        if let storage { _ = try? Self.run("umount", [storage.path]) }
    }

    /// Fills the storage under a thin image, so that the kernel can no longer write back what
    /// the file system holds in memory.
    public func exhaustStorage() throws {
        guard let storage else { throw Unavailable("the disk image is not thin") }
        try Self.fill(storage.appendingPathComponent("filler"))
    }

    /// Frees the storage ``exhaustStorage()`` filled.
    public func freeStorage() throws {
        guard let storage else { throw Unavailable("the disk image is not thin") }
        try FileManager.default.removeItem(at: storage.appendingPathComponent("filler"))
    }

    /// Makes the kernel turn the file system read-only under the files open on it, as it does
    /// after an I/O error (ext4's `trigger_fs_error`, mounted `errors=remount-ro`): every write
    /// from then on fails with `EROFS`.
    public func turnReadOnly() throws {
        let device = try Self.output("findmnt", ["-n", "-o", "SOURCE", folder.path])
        let trigger = "/sys/fs/ext4/\(URL(fileURLWithPath: device).lastPathComponent)/trigger_fs_error"
        guard let handle = FileHandle(forWritingAtPath: trigger) else { throw Unavailable("cannot open '\(trigger)'") }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("strata test\n".utf8))
        } catch {
            throw Unavailable("cannot write '\(trigger)': \(error)")
        }
    }

    /// Unmounts the file system (nothing may be open on it), repairs it and mounts it writable
    /// again.
    public func remountWritable() throws {
        try Self.run("umount", [folder.path])
        // e2fsck exits with 1 when it corrected the error flag the trigger set.
        _ = try? Self.run("e2fsck", ["-fy", image.path]) as String
        try mount()
    }

    /// Fills the file system to its last block with the file `name`; returns the file.
    @discardableResult
    public func fill(named name: String = "filler") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Self.fill(url)
        return url
    }

    /// Appends to the file at `url` until its file system has no byte left.
    private static func fill(_ url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw Unavailable("cannot create '\(url.path)'") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0xA5, count: 4_096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // What is left is smaller than a block: fill it byte by byte.
        var byte: UInt8 = 0xA5
        while write(descriptor, &byte, 1) > 0 {}
        fsync(descriptor)
    }

    private static func output(_ command: String, _ arguments: [String]) throws -> String {
        try run(command, arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    private static func run(_ command: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Unavailable("cannot run \(command): \(error)")
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Unavailable("\(command) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return printed
    }

    /// Why a disk image could not be made.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

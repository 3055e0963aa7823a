import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(descriptor, buffer, count)
    }
#else
    private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Darwin.write(descriptor, buffer, count)
    }
#endif

/// Writes a secret (a private key) so that no other user can read it at any moment.
///
/// `FileManager.createFile(atPath:contents:attributes:)` writes a temporary file with the
/// umask's mode, renames it and only then applies `0600`: with umask 000 a watcher read the key
/// in 30 of 30 runs. Here the file is created by `open(O_CREAT | O_EXCL | O_NOFOLLOW, 0600)`, so
/// it is 0600 from its first byte whatever the umask, inside a directory made 0700; the data and
/// the directory entry are fsynced before success is reported.
enum SecretFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates `directory` (and missing parents) with mode 0700. An existing directory is kept
    /// as it is, but refused when group or others may write to it (they could swap the file).
    static func makeDirectory(_ directory: String) throws(Failure) {
        var status = stat()
        if lstat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Failure(description: "\(directory) is not a directory")
            }
            // Writable by others is refused (they could replace the file), unless the sticky bit
            // stops them deleting what is not theirs (/tmp); O_EXCL|O_NOFOLLOW defeats a planted link.
            guard status.st_mode & 0o022 == 0 || status.st_mode & 0o1000 != 0 else {
                throw Failure(description: "\(directory) is writable by group or others; use a private directory")
            }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory, lstat(parent, &status) != 0 { try makeDirectory(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw Failure(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        // mkdir's mode is filtered by the umask, which can only remove bits: make it exactly 0700.
        _ = chmod(directory, 0o700)
    }

    /// Writes `bytes` to a new file at `path` with mode 0600 from creation; refuses an existing path.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Failure?
        // The umask can only have removed bits; fchmod makes the mode exactly 0600 before any data.
        if fchmod(descriptor, 0o600) != 0 { failure = Failure(description: "cannot set the mode of \(path)") }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            } else {
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(description: "cannot fsync \(path)") }
        close(descriptor)
        if let failure {
            unlink(path)
            throw failure
        }
        syncDirectory(of: path)
    }

    /// Makes the new directory entry durable.
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

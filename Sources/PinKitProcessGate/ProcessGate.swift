public import Foundation

/// Keeps child-process launches apart from code that holds very many file descriptors.
///
/// Foundation's `Process.run()` on Linux (swift-corelibs-foundation up to Swift 6.3, fixed
/// upstream by pull request 5472) lists `/proc/self/fd` to find the descriptors to close in the
/// child and copies a whole 256-byte `dirent` name out of readdir's buffer. Once about 1,500
/// descriptors are open, the last record sits at the buffer's end and the copy reads past it: a
/// heap over-read that AddressSanitizer reports and that, when the next page is unmapped, kills
/// the process with SIGSEGV. A test process reaches that count when one test holds a thousand
/// loopback connections while another starts a child, so the crash came and went with test order.
///
/// Every launch in code that runs inside the test process goes through ``run(_:)``; code that
/// holds many descriptors at once runs inside ``withManyDescriptors(_:)``, so no launch overlaps it.
public enum ProcessGate {
    private static let lock = NSLock()

    /// `process.run()`, never while a ``withManyDescriptors(_:)`` body runs.
    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }

    /// Runs `body`, which may hold many descriptors open, while no process is being launched.
    /// The body must not launch processes itself.
    public static func withManyDescriptors<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

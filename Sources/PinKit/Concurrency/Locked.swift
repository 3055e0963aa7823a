import Foundation

/// A value behind a pthread mutex, shared between threads.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex system calls, which
/// ThreadSanitizer cannot see, so every access it protects is reported as a data race and the
/// sanitizer run in CI could not tell real races from these. A pthread mutex (`NSLock`) is
/// understood by the sanitizers and costs about the same uncontended.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, under `lock`.
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

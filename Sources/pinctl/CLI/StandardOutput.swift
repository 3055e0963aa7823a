import Foundation
import Synchronization

/// Writes to file descriptors 1 and 2 without ever crashing on a closed pipe.
///
/// `pinctl lab | head -1` closes the pipe while pinctl still writes. The default SIGPIPE kills
/// the process (with a backtrace from the Swift runtime), and `FileHandle.write(_:)` traps on
/// EPIPE. `main` ignores SIGPIPE, and this writer treats EPIPE as "the reader is gone": it stops
/// writing to that stream and lets the command finish with its own exit code, so a script's
/// `set -o pipefail` still sees the real result.
enum StandardOutput {
    private static let closed = Atomic<UInt8>(0)

    /// Ignores SIGPIPE for the whole process; call once, first thing in `main`.
    static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }

    /// Writes all of `bytes` to `descriptor` (1 or 2), retrying short writes and EINTR; after
    /// EPIPE (or any other write error) the stream is dropped silently.
    static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32 = 1) {
        let bit: UInt8 = descriptor == 1 ? 1 : 2
        guard closed.load(ordering: .relaxed) & bit == 0 else { return }
        let buffer = Array(bytes)
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                closed.bitwiseOr(bit, ordering: .relaxed)
                return
            }
        }
    }
}

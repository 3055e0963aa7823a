import Foundation
import PinKitProcessGate
import Testing

/// Launches wait while a test holds many descriptors (Foundation's Process.run() reads past its
/// readdir buffer at about 1,500 open descriptors; see ProcessGate).
@Suite("Process launches and many-descriptor sections")
struct ProcessGateTests {
    final class Flags: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var launched = false
        func setLaunched() { lock.withLock { launched = true } }
        var hasLaunched: Bool { lock.withLock { launched } }
    }

    @Test("a launch started during a many-descriptor section happens only after it")
    func launchWaits() throws {
        let flags = Flags()
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let launchedInside = ProcessGate.withManyDescriptors { () -> Bool in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/true")
                ready.signal()
                try? ProcessGate.run(process)
                flags.setLaunched()
                process.waitUntilExit()
                done.signal()
            }
            ready.wait()
            // Ungated, /bin/true is launched well within this wait; gated, it cannot be.
            usleep(300_000)
            return flags.hasLaunched
        }
        #expect(!launchedInside)
        done.wait()
        #expect(flags.hasLaunched)
    }
}

import Dispatch
import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// The handshake produces a value: events reach the app on the caller's side, never on the
/// session's one engine thread, so a slow observer (report store, audit log: file writes and
/// fsync) cannot stall the other transfers of the session.
@Suite("Observer delivery")
struct ObserverDeliveryTests {
    let lab = TransportLab.shared

    @Test("an observer blocked on a semaphore does not hold up a concurrent transfer on the same client")
    func blockedObserver() async throws {
        // One rogue chain for both names: the pinned name gets a report-only mismatch (an
        // event), the other name is unpinned (no event).
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com", "status.example.net"]))
        defer { server.stop() }
        let order = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let client = try lab.client(
            try lab.policy(mode: "report-only"), server: server, hosts: ["api.example.com", "status.example.net"]
        ) {
            $0.observer = { _ in
                order.withLock { $0.append("observer entered") }
                entered.signal()
                // Bounded only so that a regression fails instead of hanging the suite; generous,
                // because the full suite can hold the task pool (and so the other transfer's
                // caller) for minutes.
                let released = gate.wait(timeout: .now() + 300) == .success
                order.withLock { $0.append(released ? "observer released" : "observer gave up") }
            }
        }
        let reporting = Task {
            let status = try await client.get(server.url(host: "api.example.com")).status
            order.withLock { $0.append("reporting transfer completed") }
            return status
        }
        await waitOffThePool(entered)
        let other = try await client.get(server.url(host: "status.example.net"))
        order.withLock { $0.append("other transfer completed") }
        gate.signal()
        #expect(try await reporting.value == 200)
        #expect(other.status == 200)
        #expect(
            order.withLock { $0 } == [
                "observer entered", "other transfer completed", "observer released", "reporting transfer completed",
            ])
    }

    @Test("an enforce-mode mismatch is delivered to the observer before send() throws")
    func deliveredBeforeThrow() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let recorder = EventRecorder()
        let client = try lab.client(try lab.policy(), server: server) { $0.observer = recorder.observer }
        let error = await transportError { try await client.get(server.url(host: "api.example.com")) }
        #expect(error?.code == .pinMismatch)
        guard case .pinFailure(let event)? = recorder.all.first else {
            Issue.record("no event by the time send() threw: \(recorder.all)")
            return
        }
        #expect(event.notedHostname == "api.example.com")
        #expect(event.validatedCertificateChain.last == lab.rogue.root.certificate.pem)
        #expect(recorder.all.count == 1)
    }

    /// Waits for `semaphore` on a thread of its own, not on a cooperative-pool thread.
    private func waitOffThePool(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}

import Foundation
import Testing

@testable import PinKit

/// Issue 14 item 14: every sequence of up to six events, run against the real
/// ``KillSwitchStateMachine`` (with the deterministic fake verifier), checking the kill switch's
/// invariants in every reachable state. Breadth-first with de-duplication of identical states,
/// so the count printed is the number of distinct states explored.
@Suite("Kill-switch state machine, every ordering")
struct KillSwitchExplorationTests {
    typealias F = KillSwitchFixture
    static let t0 = F.now
    static let appVersion = "1.3.0"
    static let probeHosts = ["api.example.com", "v2.api.example.com", "cdn.example.com", "other.example.org"]

    /// One document an attacker or the operator can deliver at any step (so every genuine one
    /// can also be replayed at any later step).
    struct Document {
        var name: String
        var bytes: [UInt8]
        var genuine: Bool
        var payload: KillSwitchDocument.Payload
    }

    static let documents: [Document] = {
        func genuine(_ name: String, _ payload: KillSwitchDocument.Payload) -> Document {
            Document(name: name, bytes: F.signed(payload), genuine: true, payload: payload)
        }
        func forged(_ name: String, _ payload: KillSwitchDocument.Payload) -> Document {
            // Signed by a key that is not configured, under the configured key id.
            Document(name: name, bytes: F.signed(payload, key: F.keyB, keyId: "a"), genuine: false, payload: payload)
        }
        let issued = t0.addingTimeInterval(-60)
        return [
            genuine("off#1 api 1h", F.payload(serial: 1, hosts: ["api.example.com"], issued: issued, lifetime: 3600)),
            genuine("on#2", F.payload(serial: 2, pinning: .on, hosts: nil, issued: issued, lifetime: 86_400)),
            genuine("off#3 all 2h", F.payload(serial: 3, hosts: nil, issued: issued, lifetime: 7200)),
            genuine(
                "off#4 cdn+unpinned 1d",
                F.payload(serial: 4, hosts: ["cdn.example.com", "other.example.org"], issued: issued, lifetime: 86_400)),
            genuine("off#2 api (serial clash)", F.payload(serial: 2, hosts: ["api.example.com"], issued: issued)),
            genuine("off#5 api 10m", F.payload(serial: 5, hosts: ["api.example.com"], issued: issued, lifetime: 600)),
            genuine(
                "off#6 api for 2.x only",
                KillSwitchDocument.Payload(
                    serial: 6, issuedAt: issued, expiresAt: issued.addingTimeInterval(86_400), pinning: .off,
                    scope: .init(hosts: ["api.example.com"], minimumAppVersion: "2.0.0", maximumAppVersion: "2.9.9"),
                    reason: "INC-6")),
            genuine(
                "off#7 issued 2h ahead",
                F.payload(serial: 7, hosts: nil, issued: t0.addingTimeInterval(7200), lifetime: 3600)),
            genuine("off#8 valid 40 days", F.payload(serial: 8, hosts: nil, issued: issued, lifetime: 40 * 86_400)),
            forged("forged off#9 all", F.payload(serial: 9, hosts: nil, issued: issued, lifetime: 86_400)),
            forged("forged off#3 all", F.payload(serial: 3, hosts: nil, issued: issued, lifetime: 7200)),
        ]
    }()

    /// Two releases' configurations: the second stops pinning cdn.example.com.
    static let policies: [PinPolicy] = {
        func policy(_ hosts: [String]) -> PinPolicy {
            let configuration = PinConfiguration(pinSets: [
                .init(
                    name: "s", hosts: hosts,
                    pins: [.init(sha256: Fixture.intermediate), .init(sha256: Fixture.backup, role: .backup)])
            ])
            return try! PinPolicy(configuration)
        }
        return [policy(["api.example.com", "cdn.example.com"]), policy(["api.example.com"])]
    }()

    enum Event: Hashable, CustomStringConvertible {
        case deliver(Int)
        case clockForward, clockBack, tick, restartPersisted, restartLost, switchConfiguration, raiseFloor

        var description: String {
            switch self {
            case .deliver(let index): "deliver \(KillSwitchExplorationTests.documents[index].name)"
            case .clockForward: "clock +90m"
            case .clockBack: "clock -90m"
            case .tick: "tick"
            case .restartPersisted: "restart (state kept)"
            case .restartLost: "restart (state lost)"
            case .switchConfiguration: "update configuration"
            case .raiseFloor: "release with minimumSerial 3"
            }
        }

        static let all: [Event] =
            documents.indices.map(Event.deliver) + [
                .clockForward, .clockBack, .tick, .restartPersisted, .restartLost, .switchConfiguration, .raiseFloor,
            ]
    }

    /// The explored state: the real machine plus the world around it and a ghost of the newest
    /// accepted document (what the invariants are stated against).
    struct State: Hashable {
        var machine = KillSwitchStateMachine()
        var minutes = 0
        var policy = 0
        var floor: Int64 = 0
        /// Index into `documents` of the newest document this install accepted (forgotten with its state).
        var newestAccepted: Int?
        var now: Date { KillSwitchExplorationTests.t0.addingTimeInterval(Double(minutes) * 60) }
    }

    struct Violation: Error, CustomStringConvertible {
        var trail: [Event]
        var message: String
        var description: String { "\(message) after: " + trail.map(\.description).joined(separator: " → ") }
    }

    /// Applies one event with `verifier`; returns the new state or the violated invariant.
    /// - Parameter honoursFloor: false gives the machine no floor, a broken variant that shows
    ///   the floor invariant can fail.
    static func step(_ state: State, _ event: Event, verifier: FakeSignatureVerifier, honoursFloor: Bool = true)
        -> (State, String?)
    {
        var next = state
        var settings = F.settings(verifier: verifier)
        settings.minimumSerial = honoursFloor ? state.floor : 0
        switch event {
        case .deliver(let index):
            let actions = next.machine.receive(documents[index].bytes, settings: settings, now: state.now)
            if actions.contains(.persist) {
                next.newestAccepted = index
                // The build's floor: nothing at or below killSwitch.minimumSerial is ever accepted,
                // also by an install whose state was lost (the replay the floor exists for).
                if documents[index].payload.serial <= state.floor {
                    return (
                        next,
                        "\(documents[index].name) was accepted at or below the build's minimumSerial \(state.floor)"
                    )
                }
            }
        case .clockForward: next.minutes += 90
        case .clockBack: next.minutes -= 90
        case .tick: _ = next.machine.tick(now: state.now)
        case .restartPersisted:
            guard let restored = try? KillSwitchStateMachine(json: JSONParser.parse(next.machine.json.serialized()))
            else {
                return (next, "the persisted state did not restore")
            }
            next.machine = restored
        case .restartLost:
            next.machine = KillSwitchStateMachine()
            next.newestAccepted = nil
        case .switchConfiguration: next.policy = 1 - next.policy
        case .raiseFloor: next.floor = max(next.floor, 3)
        }
        if event != .restartLost, next.machine.highestSerial < state.machine.highestSerial {
            return (next, "the serial went backwards (\(state.machine.highestSerial) → \(next.machine.highestSerial))")
        }
        return (next, invariantViolation(next))
    }

    /// The invariants, checked in one state.
    static func invariantViolation(_ state: State) -> String? {
        let base = policies[state.policy]
        let effective = state.machine.effectivePolicy(base, appVersion: appVersion, now: state.now)
        let highest = state.machine.highestSerial
        if highest != 0, !documents.contains(where: { $0.genuine && $0.payload.serial == highest }) {
            return "serial \(highest) came from no genuine document"
        }
        for host in probeHosts {
            let pinned = effective.pinSet(for: host)
            let configured = base.pinSet(for: host)
            // No document adds a pin, re-points a host, or pins a host the configuration does not.
            if let pinned,
                pinned.name != configured?.name || pinned.pins != configured?.pins
                    || pinned.backupPins != configured?.backupPins || pinned.mode != configured?.mode
                    || pinned.expires != configured?.expires
            {
                return "\(host) is pinned to \(pinned.name) with pins the configuration does not give it"
            }
            guard configured != nil, pinned == nil else { continue }
            // Pinning is off only while a genuine, unexpired, in-scope off is the newest accepted document.
            guard let newest = state.newestAccepted else { return "\(host) is unpinned but nothing was accepted" }
            let document = documents[newest]
            guard document.genuine else { return "\(host) is unpinned by a forged document (\(document.name))" }
            guard document.payload.pinning == .off else { return "\(host) is unpinned although the newest is an on" }
            guard document.payload.expiresAt > state.now else {
                return "\(host) is unpinned by an expired off (\(document.name))"
            }
            guard document.payload.scope.contains(host: host), document.payload.scope.contains(appVersion: appVersion)
            else { return "\(host) is unpinned by an off whose scope does not cover it" }
            guard state.machine.activeOff == document.payload else {
                return "\(host) is unpinned, but not by the newest accepted document"
            }
        }
        return nil
    }

    /// Breadth-first over every sequence of up to `depth` events.
    static func explore(depth: Int, verifier: FakeSignatureVerifier, honoursFloor: Bool = true) -> (
        states: Int, transitions: Int, violation: Violation?
    ) {
        var seen: Set<State> = [State()]
        var frontier: [(State, [Event])] = [(State(), [])]
        var transitions = 0
        for _ in 0..<depth {
            var next: [(State, [Event])] = []
            for (state, trail) in frontier {
                for event in Event.all {
                    transitions += 1
                    let (successor, violation) = step(state, event, verifier: verifier, honoursFloor: honoursFloor)
                    if let violation {
                        return (seen.count, transitions, Violation(trail: trail + [event], message: violation))
                    }
                    if seen.insert(successor).inserted { next.append((successor, trail + [event])) }
                }
            }
            frontier = next
        }
        return (seen.count, transitions, nil)
    }

    @Test("the checker finds the forged-document attack in a machine whose verifier accepts anything")
    func brokenVariantIsCaught() {
        let result = Self.explore(depth: 6, verifier: FakeSignatureVerifier(acceptsAnything: true))
        #expect(result.violation != nil)
        #expect(
            result.violation?.message.contains("forged") == true
                || result.violation?.message.contains("genuine") == true,
            "\(String(describing: result.violation))")
        print("broken variant: \(result.violation.map(\.description) ?? "no violation")")
    }

    /// The floor was explored (the raiseFloor event) but no invariant looked at it, so a machine
    /// that ignored minimumSerial passed every ordering; seen passing with honoursFloor: false
    /// before the invariant existed.
    @Test("the checker finds an old document replayed below the floor in a machine that ignores it")
    func floorIgnoredIsCaught() {
        let result = Self.explore(depth: 6, verifier: FakeSignatureVerifier(), honoursFloor: false)
        #expect(result.violation?.message.contains("minimumSerial") == true, "\(String(describing: result.violation))")
    }

    @Test("every sequence of up to 6 events keeps the kill switch's invariants")
    func everyOrdering() {
        let result = Self.explore(depth: 6, verifier: FakeSignatureVerifier())
        print(
            "kill-switch exploration: \(result.states) distinct states, \(result.transitions) transitions, depth 6, \(Event.all.count) events"
        )
        #expect(result.violation == nil, "\(String(describing: result.violation))")
        #expect(result.states > 300, "the exploration reached \(result.states) states")
    }
}

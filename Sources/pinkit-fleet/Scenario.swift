import Foundation

/// One fleet scenario on a virtual timeline (seconds from the simulation's start).
struct Scenario: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case steady
        case outage
        case killSwitch = "kill-switch"
        case badRotation = "bad-rotation"
        /// The outage as planned maintenance: the load balancer answers every request with `503`
        /// and `Retry-After` set to the HTTP date the window ends, the same instant for everyone.
        case maintenance
    }

    let kind: Kind
    /// Virtual seconds simulated.
    let duration: Double
    /// The collector is down in this interval: connections are refused, or in maintenance they
    /// are answered 503 with the window's end as `Retry-After`.
    let outage: Range<Double>?
    /// An operator publishes an "off" document at this time.
    let killSwitchAt: Double?
    /// From this time a bad rotation makes this share of devices fail pinning on API connections.
    let rotation: (at: Double, share: Double)?

    static let hour = 3600.0

    static func make(_ kind: Kind) -> Scenario {
        switch kind {
        case .steady:
            return Scenario(kind: kind, duration: 12 * hour, outage: nil, killSwitchAt: nil, rotation: nil)
        case .outage, .maintenance:
            // 4 h of steady state, a 6-hour outage, then the upload backoff ceiling and a margin.
            return Scenario(
                kind: kind, duration: 18 * hour, outage: (4 * hour)..<(10 * hour), killSwitchAt: nil, rotation: nil)
        case .killSwitch:
            return Scenario(kind: kind, duration: 6 * hour, outage: nil, killSwitchAt: 2 * hour, rotation: nil)
        case .badRotation:
            // The rotation breaks 30 %; the operator publishes the kill switch an hour later.
            return Scenario(
                kind: kind, duration: 8 * hour, outage: nil, killSwitchAt: 3 * hour, rotation: (2 * hour, 0.3))
        }
    }

    func isDown(at time: Double) -> Bool { outage?.contains(time) ?? false }

    /// Whether a request in the outage gets a maintenance answer rather than a refused connection.
    var answersDuringOutage: Bool { kind == .maintenance }
}

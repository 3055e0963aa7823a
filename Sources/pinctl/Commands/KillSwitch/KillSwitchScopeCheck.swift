import Foundation
import PinKit

/// The operator's checks on a kill-switch scope, applied by `sign` and `verify`: no public
/// suffix, no host outside every pin set of the configuration, no inverted app-version range.
///
/// The app itself applies a genuine document's scope as written: it can never be wider than
/// "every pinned host", and an app has no suffix list to disagree with.
enum KillSwitchScopeCheck {
    struct Problem: Equatable {
        var code: String
        var message: String
    }

    static func problems(
        _ scope: KillSwitchDocument.Scope, configuration: PinConfiguration?,
        publicSuffixes: PublicSuffixList? = .system
    ) -> [Problem] {
        var problems: [Problem] = []
        for host in scope.hosts ?? [] {
            let shown = TerminalText.escaped(host)
            if let syntax = HostName.syntaxProblem(ofPattern: host) {
                problems.append(Problem(code: "invalid-host", message: syntax.message(for: shown)))
                continue
            }
            let normalized = HostName.normalize(host)
            if publicSuffixes?.isPublicSuffix(normalized) ?? !normalized.contains(".") {
                problems.append(
                    Problem(
                        code: "public-suffix-host",
                        message: "\(shown) is a public suffix: the scope would reach unrelated parties' names"))
                continue
            }
            if let configuration {
                let inside = configuration.pinSets.contains { set in
                    set.hosts.map(HostName.normalize).contains { pattern in
                        set.includeSubdomains
                            ? HostName.host(normalized, isWithinOrEqualTo: pattern) : normalized == pattern
                    }
                }
                if !inside {
                    problems.append(
                        Problem(
                            code: "host-not-pinned",
                            message:
                                "\(shown) is outside every pin set of the configuration, so the document could not change anything for it"
                        ))
                }
            }
        }
        if let minimum = scope.minimumAppVersion, let maximum = scope.maximumAppVersion,
            AppVersion.compare(minimum, maximum) == .orderedDescending
        {
            problems.append(
                Problem(
                    code: "inverted-app-versions",
                    message:
                        "the app-version range \(TerminalText.escaped(minimum))-\(TerminalText.escaped(maximum)) is inverted: it matches no version"
                ))
        }
        return problems
    }

    /// Every rule `sign` applies to what it signs, for a payload made elsewhere (`assemble`): the
    /// scope above, a reason without control characters, a lifetime of at most 30 days that has
    /// not ended, and a serial above the configuration's floor. `assemble` is `sign` for keys in
    /// a KMS or HSM; without these it wrote documents `sign` refuses and `verify` rejects.
    static func payloadProblems(
        _ payload: KillSwitchDocument.Payload, configuration: PinConfiguration?, now: Date
    ) -> [Problem] {
        var problems = Self.problems(payload.scope, configuration: configuration)
        if payload.reason.isEmpty || payload.reason.unicodeScalars.contains(where: KillSwitchSign.isControl) {
            problems.append(
                Problem(
                    code: "reason",
                    message: "the reason must be text without control characters (it is shown on operators' terminals)")
            )
        }
        if payload.expiresAt <= payload.issuedAt || payload.expiresAt.timeIntervalSince(payload.issuedAt) > 30 * 86_400
        {
            problems.append(
                Problem(code: "lifetime", message: "the document must expire after it is issued and within 30 days"))
        } else if payload.expiresAt <= now {
            problems.append(
                Problem(code: "expired", message: "the document expired at \(RFC3339.format(payload.expiresAt))"))
        }
        if let floor = configuration?.killSwitch?.minimumSerial, payload.serial <= floor {
            problems.append(
                Problem(
                    code: "below-minimum-serial",
                    message:
                        "serial \(payload.serial) is at or below the configuration's killSwitch.minimumSerial \(floor): apps would refuse it"
                ))
        }
        return problems
    }
}

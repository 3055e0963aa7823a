/// Issuing CAs that a public CA rotates among on its own schedule, so pinning one of them
/// alone bricks the app at the CA's next switch.
///
/// Shipped as data, with where each fact comes from and when it was read. Matching is by the
/// issuing certificate's subject organization and a common-name shape, so a new generation
/// under the same naming scheme is recognised before this list is updated.
public struct RotatingIntermediates: Sendable {
    public struct Family: Sendable {
        /// The subject `O` of the intermediates.
        public var organization: String
        /// Common-name prefixes followed by digits only (e.g. `R` matches R10, R11, R12 …).
        public var commonNamePrefixes: [String]
        /// The roots those intermediates chain to: pin these (or every current intermediate).
        public var roots: [String]
        /// The intermediates current when the facts were read.
        public var current: [String]
        /// Where the facts come from, and when they were read.
        public var source: String
        public var asOf: String
    }

    public static let known: [Family] = [
        Family(
            organization: "Let's Encrypt",
            commonNamePrefixes: ["R", "E"],
            roots: ["ISRG Root X1", "ISRG Root X2"],
            current: ["R10", "R11", "E5", "E6"],
            source:
                "https://letsencrypt.org/certificates/ (each leaf is issued by one of several intermediates chosen at random; Let's Encrypt advises against pinning them)",
            asOf: "2024-06"
        ),
        Family(
            organization: "Google Trust Services",
            commonNamePrefixes: ["WR", "WE"],
            roots: ["GTS Root R1", "GTS Root R2", "GTS Root R3", "GTS Root R4"],
            current: ["WR1", "WR2", "WR3", "WR4", "WE1", "WE2"],
            source: "https://pki.goog/repository/ (several subordinate CAs issue in parallel)",
            asOf: "2024-06"
        ),
    ]

    /// The family of an issuing CA, given its subject in RFC 2253 form (`CN=R11,O=Let's Encrypt,C=US`).
    public static func family(ofSubject subject: String) -> Family? {
        let attributes = subject.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        let organization = attributes.first { $0.count == 2 && $0[0] == "O" }?[1]
        let commonName = attributes.first { $0.count == 2 && $0[0] == "CN" }?[1]
        guard let organization, let commonName else { return nil }
        return known.first { family in
            family.organization == organization
                && family.commonNamePrefixes.contains { prefix in
                    commonName.hasPrefix(prefix) && commonName.count > prefix.count
                        && commonName.dropFirst(prefix.count).allSatisfy(\.isNumber)
                }
        }
    }
}

import Foundation

@testable import PinKit

/// Pins and documents shared by the core suites. The pins are arbitrary but well formed; the
/// OpenSSL suites check real certificates.
enum Fixture {
    static func pin(_ seed: UInt8) -> String {
        Base64.encode((0..<32).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) })
    }
    static let intermediate = pin(1)
    static let root = pin(2)
    static let backup = pin(3)
    static let other = pin(4)

    static let now = RFC3339.parse("2026-11-29T00:00:00Z")!

    /// The example document, with real-looking pins.
    static let exampleJSON = """
        { "pinSets": [ { "name": "managed-cloud",
                         "hosts": ["api.example.com"], "includeSubdomains": true,
                         "excludeSubdomains": ["status.api.example.com"],
                         "pins": [ {"sha256": "\(intermediate)", "label": "GTS WE1 intermediate"},
                                   {"sha256": "\(root)", "label": "GTS Root R4"},
                                   {"sha256": "\(backup)", "label": "backup key 2027", "role": "backup"} ],
                         "expires": "2028-06-01T00:00:00Z",
                         "mode": "enforce" } ],
          "killSwitch": { "url": "https://pinning-status.example.net/v1/kill-switch.json",
                          "publicKeys": [ {"keyId": "ks-2026", "spki": "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE="},
                                          {"keyId": "ks-2026-b", "spki": "MCowBQYDK2VwAyEAWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWhE="} ] },
          "reporting":  { "url": "https://api.example.com/v1/pin-failures" } }
        """

    static func configuration(_ json: String) throws -> PinConfiguration {
        try PinConfiguration.parse(Data(json.utf8))
    }

    /// A pin set document with the given members replacing the defaults.
    static func set(_ overrides: [String: String] = [:]) -> String {
        var members: [String: String] = [
            "name": "\"s\"",
            "hosts": "[\"api.example.com\"]",
            "pins": "[{\"sha256\": \"\(intermediate)\"}, {\"sha256\": \"\(backup)\", \"role\": \"backup\"}]",
        ]
        for (key, value) in overrides { members[key] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
            + "}"
    }

    static let suffixes = PublicSuffixList(
        text: """
            // test list
            com
            net
            uk
            co.uk
            github.io
            *.ck
            !www.ck
            公司.cn
            cn
            """
    )
}

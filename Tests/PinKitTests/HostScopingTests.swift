import Foundation
import Testing

@testable import PinKit

@Suite("Host scoping")
struct HostScopingTests {
    static let policy: PinPolicy = {
        let json = """
            {"pinSets": [
              {"name": "cloud", "hosts": ["example.com"], "excludeSubdomains": ["status.example.com"],
               "pins": [{"sha256": "\(Fixture.intermediate)"}, {"sha256": "\(Fixture.backup)", "role": "backup"}]},
              {"name": "api", "hosts": ["api.example.com"],
               "pins": [{"sha256": "\(Fixture.root)"}, {"sha256": "\(Fixture.backup)", "role": "backup"}]},
              {"name": "exact", "hosts": ["exact.example.org"], "includeSubdomains": false,
               "pins": [{"sha256": "\(Fixture.root)"}, {"sha256": "\(Fixture.backup)", "role": "backup"}]}
            ]}
            """
        return try! PinPolicy(Fixture.configuration(json))
    }()

    // (host, the pin set expected to apply or nil for system trust)
    @Test(
        "hostile and ordinary host names",
        arguments: [
            ("example.com", "cloud"),
            ("EXAMPLE.COM", "cloud"),
            ("example.com.", "cloud"),
            ("Example.Com.", "cloud"),
            ("www.example.com", "cloud"),
            ("a.b.c.example.com", "cloud"),
            ("api.example.com", "api"),
            ("API.Example.COM.", "api"),
            ("v2.api.example.com", "api"),
            ("status.example.com", nil),
            ("deep.status.example.com", nil),
            ("STATUS.example.com.", nil),
            ("evilexample.com", nil),
            ("example.com.evil.net", nil),
            ("example.co", nil),
            ("xample.com", nil),
            ("com", nil),
            ("", nil),
            (".", nil),
            ("example.com..", nil),
            ("exact.example.org", "exact"),
            ("sub.exact.example.org", nil),
            ("exact.example.org.evil.net", nil),
            ("self-hosted.health.local", nil),
            ("192.168.1.10", nil),
            ("ex\u{0430}mple.com", nil),
            ("example.com\u{0000}.evil.net", nil),
        ] as [(String, String?)]
    )
    func scoping(_ host: String, _ expected: String?) {
        #expect(Self.policy.pinSet(for: host)?.name == expected, "host \(host.debugDescription)")
        #expect(Self.policy.isPinnedHost(host) == (expected != nil))
    }

    @Test("normalisation lower-cases ASCII and strips exactly one trailing dot")
    func normalisation() {
        #expect(HostName.normalize("API.Example.COM.") == "api.example.com")
        #expect(HostName.normalize("a..") == "a.")
        #expect(HostName.normalize("ÄPI.example.com") == "Äpi.example.com")
    }

    @Test(
        "host pattern syntax",
        arguments: [
            ("api.example.com", nil),
            ("API.example.com.", nil),
            ("", HostName.SyntaxProblem.empty),
            (".", .empty),
            ("a..example.com", .emptyLabel),
            (".example.com", .emptyLabel),
            ("*.example.com", .wildcard),
            ("api*.example.com", .wildcard),
            ("127.0.0.1", .ipLiteral),
            ("127.1", .ipLiteral),
            ("0x7f.1", .ipLiteral),
            ("::1", .ipLiteral),
            ("[::1]", .ipLiteral),
            ("bücher.example", .nonASCII),
            ("xn--bcher-kva.example", nil),
            ("exa mple.com", .invalidCharacter(" ")),
            ("example.com/path", .invalidCharacter("/")),
            (String(repeating: "a", count: 64) + ".com", .tooLong),
        ] as [(String, HostName.SyntaxProblem?)]
    )
    func patternSyntax(_ pattern: String, _ expected: HostName.SyntaxProblem?) {
        #expect(HostName.syntaxProblem(ofPattern: pattern) == expected)
    }
}

@Suite("Public suffix list")
struct PublicSuffixListTests {
    @Test(
        "rules, wildcards, exceptions and the implicit * rule",
        arguments: [
            ("com", true), ("co.uk", true), ("github.io", true), ("example.com", false), ("example.co.uk", false),
            ("user.github.io", false), ("anything.ck", true), ("www.ck", false), ("localhost", true),
            ("xn--55qx5d.cn", true), ("example.xn--55qx5d.cn", false),
        ]
    )
    func rules(_ name: String, _ isSuffix: Bool) {
        #expect(Fixture.suffixes.isPublicSuffix(name) == isSuffix)
    }

    @Test("RFC 3492 punycode samples")
    func punycode() {
        #expect(Punycode.toASCII("bücher") == "xn--bcher-kva")
        #expect(Punycode.toASCII("公司.cn") == "xn--55qx5d.cn")
        #expect(Punycode.toASCII("münchen.de") == "xn--mnchen-3ya.de")
    }

    @Test("Debian's list, when installed, knows the suffixes the guard names")
    func debianList() throws {
        guard let list = PublicSuffixList.system else {
            // The list is installed by scripts/setup; its absence is itself a failure here.
            Issue.record("\(PublicSuffixList.debianPath) is missing: run scripts/setup")
            return
        }
        #expect(list.ruleCount > 5_000)
        for suffix in ["com", "co.uk", "github.io", "net", "xn--55qx5d.cn"] { #expect(list.isPublicSuffix(suffix)) }
        for name in ["example.com", "example.co.uk", "someone.github.io"] { #expect(!list.isPublicSuffix(name)) }
    }
}

import Foundation
import FuzzSupport
import PinKit

let policy: PinPolicy = {
    let json =
        #"{"pinSets": [{"name": "a", "hosts": ["example.com"], "excludeSubdomains": ["status.example.com"], "pins": [{"sha256": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="}, {"sha256": "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", "role": "backup"}]}, {"name": "b", "hosts": ["api.example.org"], "includeSubdomains": false, "pins": [{"sha256": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="}, {"sha256": "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", "role": "backup"}]}]}"#
    return try! PinPolicy(try! PinConfiguration.parse(Data(json.utf8)))
}()

/// Host matching on label boundaries: a match is always the apex or a subdomain of it.
@_cdecl("FuzzHostPatterns_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let host = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = HostName.syntaxProblem(ofPattern: host)
    let normalized = HostName.normalize(host)
    let labels = normalized.split(separator: ".", omittingEmptySubsequences: false)
    let wellFormed = !labels.contains(where: \.isEmpty)
    let set = policy.pinSet(for: host)
    if let set, wellFormed {
        // A match is the apex or a subdomain on a label boundary (never "evilexample.com").
        precondition(
            set.hosts.contains { HostName.host(normalized, isWithinOrEqualTo: $0) }, "matched off a label boundary")
        precondition(!HostName.host(normalized, isWithinOrEqualTo: "status.example.com"), "an excluded host was pinned")
    }
    // Every well-formed subdomain of a pinned apex is pinned.
    if wellFormed, HostName.host(normalized, isWithinOrEqualTo: "example.com"),
        !HostName.host(normalized, isWithinOrEqualTo: "status.example.com")
    {
        precondition(set != nil, "a subdomain of a pinned apex escaped pinning")
    }
    return 0
}

import Foundation
import PinKit

let policy: PinPolicy = {
    let json = #"{"pinSets": [{"name": "a", "hosts": ["example.com"], "excludeSubdomains": ["status.example.com"], "pins": [{"sha256": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="}, {"sha256": "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", "role": "backup"}]}, {"name": "b", "hosts": ["api.example.org"], "includeSubdomains": false, "pins": [{"sha256": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="}, {"sha256": "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", "role": "backup"}]}]}"#
    return try! PinPolicy(try! PinConfiguration.parse(Data(json.utf8)), publicSuffixes: nil)
}()

/// Host matching on label boundaries: a match is always the apex or a subdomain of it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let host = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = HostName.syntaxProblem(ofPattern: host)
    let normalized = HostName.normalize(host)
    if let set = policy.pinSet(for: host) {
        precondition(set.hosts.contains { HostName.host(normalized, isWithinOrEqualTo: $0) }, "matched off a label boundary")
        precondition(!HostName.host(normalized, isWithinOrEqualTo: "status.example.com"), "an excluded host was pinned")
    }
    return 0
}

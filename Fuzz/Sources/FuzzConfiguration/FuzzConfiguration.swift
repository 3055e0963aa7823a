import Foundation
import FuzzSupport
import PinKit

/// The configuration reader and guard: any bytes give a configuration or a typed error.
@_cdecl("FuzzConfiguration_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard let configuration = try? PinConfiguration.parse(bytes) else { return 0 }
    let problems = configuration.validate(now: Date(timeIntervalSince1970: 1_800_000_000), publicSuffixes: nil)
    let loading = configuration.loadingProblems()
    let policy = try? PinPolicy(configuration)
    // A policy exists exactly when runtime loading found no error, and the ship-time gate is at
    // least as strict: every loading error is one of its errors.
    precondition(loading.isEmpty == (policy != nil), "loading and policy disagree")
    let gateErrors = Set(problems.filter { $0.severity == .error })
    precondition(loading.allSatisfy(gateErrors.contains), "a loading error the ship-time gate does not report")
    for set in configuration.pinSets { for host in set.hosts { _ = policy?.pinSet(for: host) } }
    return 0
}

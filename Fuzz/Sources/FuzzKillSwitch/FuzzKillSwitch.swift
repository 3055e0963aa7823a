import Foundation
import FuzzSupport
import PinKit
import PinKitOpenSSL

let signingKey = try! PrivateKey.generate(.ed25519)

/// The kill-switch envelope and verifier: with a key configured, no fuzzed document may ever
/// change the state (the fuzzer cannot sign).
@_cdecl("FuzzKillSwitch_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? KillSwitchDocument.parse(bytes)
    var machine = KillSwitchStateMachine()
    let settings = KillSwitchStateMachine.Settings(
        publicKeys: ["fuzz": signingKey.publicKeyDER],
        verifier: OpenSSLSignatureVerifier()
    )
    let actions = machine.receive(bytes, settings: settings, now: Date(timeIntervalSince1970: 1_800_000_000))
    precondition(machine.highestSerial == 0 && machine.activeOff == nil, "an unsigned document changed the state")
    precondition(!actions.contains(.persist))
    return 0
}

import FuzzSupport
import PinKit

/// Raw public keys (the Apple adapter's input) and SPKI DER. The first byte picks the key type;
/// the rest is the raw representation. The whole input is also read as SPKI DER.
///
/// Invariant: a pin is produced only for input that round-trips through the SPKI encoder.
@_cdecl("FuzzSPKI_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let selector = bytes.first {
        let keyType = SubjectPublicKeyInfo.KeyType.all[Int(selector) % SubjectPublicKeyInfo.KeyType.all.count]
        let raw = Array(bytes.dropFirst())
        if let spki = try? SubjectPublicKeyInfo(keyType: keyType, rawRepresentation: raw) {
            let parsed = try? SubjectPublicKeyInfo(derEncoded: spki.derEncoded)
            precondition(parsed == spki, "an encoded SPKI does not read back as itself")
            precondition(spki.rawRepresentation == raw, "the raw key is not what was given")
            precondition(
                spki.pin == (try? SPKIPin(digest: PortableSHA256.hash(spki.derEncoded))), "pin is not SHA-256(DER)")
        }
    }
    if let spki = try? SubjectPublicKeyInfo(derEncoded: bytes) {
        precondition(spki.derEncoded == bytes, "accepted DER that is not the canonical encoding")
        let rebuilt = try? SubjectPublicKeyInfo(keyType: spki.keyType, rawRepresentation: spki.rawRepresentation)
        precondition(rebuilt == spki, "a read SPKI does not re-encode to itself")
    }
    return 0
}

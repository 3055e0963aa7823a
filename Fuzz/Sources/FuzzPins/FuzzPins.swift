import FuzzSupport
import PinKit

/// Pin strings in every form, and both base64 alphabets.
@_cdecl("FuzzPins_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let pin = try? SPKIPin(parsing: text) {
        precondition(pin.digest.count == 32)
        precondition((try? SPKIPin(parsing: pin.base64)) == pin, "canonical form does not round-trip")
    }
    for alphabet in [Base64.Alphabet.standard, .url] {
        if case .success(let bytes) = Base64.decode(text, alphabet: alphabet) {
            // Strict decoding accepts only the canonical encoding.
            precondition(Base64.encode(bytes, alphabet: alphabet) == text, "non-canonical base64 accepted")
        }
    }
    return 0
}

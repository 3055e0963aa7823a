import FuzzSupport
import PinKit
import PinKitOpenSSL

/// PEM and DER loading: a typed error or certificates whose facts are readable.
@_cdecl("FuzzCertificates_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let certificates = try? X509Certificate.load(bytes: bytes) {
        for certificate in certificates {
            _ = certificate.subject
            _ = certificate.dnsNames
            precondition((try? X509Certificate(der: certificate.der)) == certificate, "DER does not round-trip")
        }
    }
    return 0
}

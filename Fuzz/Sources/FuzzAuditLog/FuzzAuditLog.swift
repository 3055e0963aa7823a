import Foundation
import FuzzSupport
import PinKit

/// The audit-log verifier: any bytes give a verdict with line numbers inside the file.
@_cdecl("FuzzAuditLog_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let result = AuditLogVerifier.verify(bytes, head: nil)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    precondition(
        result.problems.allSatisfy { $0.line >= 1 && $0.line <= lines + 1 }, "a problem points outside the file")
    return 0
}

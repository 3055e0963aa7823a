import Foundation
import FuzzSupport
import PinKit

/// The report store's recovery reader: any bytes replay to a consistent state.
@_cdecl("FuzzReportStore_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (entries, dropped) = PinFailureReportStore.recover(from: Data(bytes: data, count: size))
    precondition(dropped >= 0)
    precondition(Set(entries.map(\.id)).count == entries.count, "duplicate ids after replay")
    precondition(
        entries.allSatisfy { $0.count >= 1 && $0.firstSeen <= $0.lastSeen }, "an impossible count or time span")
    return 0
}

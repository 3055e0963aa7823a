import Foundation
import PinKit
import PinKitProcessGate

/// Runs a program to completion and collects what it printed: the lab's child processes (the
/// D-Bus tools, the keyring demo client) and the tests that drive them.
public enum LabProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments`; `environment` nil inherits this process's.
    ///
    /// Both pipes are drained at once, so a child that fills one cannot block on it.
    /// - Throws: when the program cannot be started.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessGate.run(process)
        let errData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }

    /// The first `directories` entry holding an executable `name`, or nil.
    public static func find(_ name: String, in directories: [String]) -> String? {
        directories.map { ($0 as NSString).appendingPathComponent(name) }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

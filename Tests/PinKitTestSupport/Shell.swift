public import Foundation
import PinKitProcessGate

/// Runs external programs (the openssl CLI, python3, the built pinctl) for oracle and CLI tests.
public enum Shell {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `arguments[0]` (looked up on PATH) with the rest as arguments.
    public static func run(
        _ arguments: [String],
        input: Data? = nil,
        directory: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try ProcessGate.run(process)
        // Read both pipes concurrently so that a full stderr pipe cannot block the child.
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        if let input { inPipe.fileHandleForWriting.write(input) }
        try? inPipe.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self)
        )
    }

    /// Runs a bash script; throws when it exits non-zero.
    @discardableResult
    public static func bash(_ script: String, directory: URL? = nil) throws -> String {
        let result = try run(["bash", "-euo", "pipefail", "-c", script], directory: directory)
        guard result.status == 0 else {
            throw ShellError(message: "script failed (\(result.status)): \(result.stderr)\n--- script:\n\(script)")
        }
        return result.stdout
    }

    public struct ShellError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

private final class LockedData: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

/// A fresh directory under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pinkit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

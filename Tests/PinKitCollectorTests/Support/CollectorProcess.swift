import Foundation
import PinKitProcessGate

/// The built `pinkit-collector` binary run as a child process, so a test can `kill -9` it.
final class CollectorProcess {
    let process = Process()
    let port: UInt16
    private let output = Pipe()

    struct Failure: Error, CustomStringConvertible { var description: String }

    static var binary: String {
        // The test runner lives in the same build folder as the executables it depends on.
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pinkit-collector").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("pinkit-collector").path
    }

    /// Starts `serve --plain-http` on a free loopback port and waits for its "listening" line.
    init(dataDirectory: String, extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments =
            ["serve", "--data", dataDirectory, "--plain-http", "--listen", "127.0.0.1:0"] + extra
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessGate.run(process)
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { throw Failure(description: "the collector exited before listening") }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "127.0.0.1:"),
            let port = UInt16(text[range.upperBound...].prefix { $0.isNumber })
        else { throw Failure(description: "no port in \(text)") }
        self.port = port
    }

    /// SIGKILL: no shutdown code runs.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func terminate() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

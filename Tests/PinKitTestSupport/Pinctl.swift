public import Foundation

/// Runs the `pinctl` binary that `swift build` put beside the test bundle.
public enum PinctlBinary {
    public static var url: URL {
        // The test runner lives in the same build folder as the executables it depends on.
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pinctl").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("pinctl")
    }

    public static func run(_ arguments: [String], input: Data? = nil) throws -> Shell.Result {
        try Shell.run([url.path] + arguments, input: input)
    }
}

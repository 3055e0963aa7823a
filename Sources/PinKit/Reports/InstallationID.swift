public import Foundation

/// A random identifier for one installation of the app, created once and kept in a file.
///
/// It names the device's audit chain and counts the installed base on the collector; it is
/// never derived from a user, an account or the hardware, and deleting the file (or the app)
/// makes a new one.
public enum InstallationID {
    /// The identifier stored at `path`, or a new one written there (mode 0600).
    /// - Throws: ``PinKitError/Code/io`` when the file can neither be read nor written.
    public static func loadOrCreate(path: String) throws(PinKitError) -> String {
        if let data = FileManager.default.contents(atPath: path) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if isValid(text) { return text }
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let id = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(id.utf8), attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0
        else { throw PinKitError(.io, "cannot write the installation id to \(path)") }
        return id
    }

    /// 32 lower-case hex digits.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// A short fingerprint of a pin set (SHA-256 over the sorted base64 pins), the same on the
/// device's check-in and in the collector's failure summary.
public enum PinSetFingerprint {
    public static func of(pins: [String]) -> String {
        String(PortableSHA256.hex(Array(pins.sorted().joined(separator: ",").utf8)).prefix(16))
    }
}

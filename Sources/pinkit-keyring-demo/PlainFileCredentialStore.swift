import Foundation
import PinKit
import PinKitClient

/// Tokens in a JSON file: the workaround a developer writes when the platform store is missing,
/// and exactly what PinKit refuses to ship. The demo has it only so that the lab can show that
/// its scan finds what such a store leaves on disk.
///
/// > Warning: Never use this in an app: the file is readable by everything the user runs.
actor PlainFileCredentialStore: CredentialStore {
    let path: String

    init(path: String) { self.path = path }

    func load() throws(CredentialStoreError) -> Tokens? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let document = try? JSONParser.parse(data), case .string(let access)? = document["accessToken"],
            case .string(let refresh)? = document["refreshToken"]
        else { throw CredentialStoreError(.failed, "\(path) is not a token file", remedy: "Remove it.") }
        return Tokens(accessToken: access, refreshToken: refresh)
    }

    func save(_ tokens: Tokens) throws(CredentialStoreError) {
        let document: JSONValue = [
            "accessToken": .string(tokens.accessToken), "refreshToken": .string(tokens.refreshToken),
        ]
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try document.serialized().write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CredentialStoreError(.failed, "cannot write \(path)", remedy: "Check the directory.")
        }
    }

    func clear() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl keygen`: a backup key pair, its CSR and its pin.
struct KeygenCommand: Command {
    static let name = "keygen"
    static let abstract = "Generate a backup key pair, a CSR for it, and its pin."
    static let help = """
        USAGE: pinctl keygen --type ec-p256|ec-p384|rsa-3072|rsa-4096 --out DIR [--subject DN] [--name NAME] [--json]

        Writes DIR/NAME.key (the private key, mode 0600, never printed), DIR/NAME.csr and
        DIR/NAME.pin, and prints the pin: add it to your pin sets as an operator-held backup
        ("role": "backup", "operatorHeld": true) now, long before you need it; at rotation
        time a CA certifies the next leaf for it (the CSR, or ACME with key reuse). NAME
        defaults to "backup". Refuses to overwrite. --json prints {"schemaVersion":1,"pin",
        "files","configurationEntry"}.
        DN is "/O=Acme/CN=Acme backup 2027" or "CN=Acme backup 2027,O=Acme".

        EXIT CODES: 0 written; 2 usage error (including an existing file).
        """

    var kind: PrivateKey.Kind
    var out: String
    var subject: [(attribute: String, value: String)]
    var name: String
    var json: Bool

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        let type = try arguments.value("--type") ?? ""
        guard let kind = PrivateKey.Kind(rawValue: type), [.ecP256, .ecP384, .rsa3072, .rsa4096].contains(kind) else {
            throw UsageError("--type is ec-p256, ec-p384, rsa-3072 or rsa-4096, saw \(type.isEmpty ? "nothing" : type)")
        }
        self.kind = kind
        guard let out = try arguments.value("--out") else { throw UsageError("keygen needs --out DIR") }
        self.out = out
        let dn = try arguments.value("--subject") ?? "CN=PinKit backup key"
        guard let subject = PrivateKey.parseSubject(dn) else { throw UsageError("--subject is not a DN: \(dn)") }
        self.subject = subject
        name = try arguments.value("--name") ?? "backup"
        guard !name.contains("/"), !name.isEmpty else { throw UsageError("--name must be a plain file name") }
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let paths = ["key", "csr", "pin"].map { (out as NSString).appendingPathComponent("\(name).\($0)") }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "\(path) exists; refusing to overwrite")
        }
        do throws(SecretFile.Failure) {
            try SecretFile.makeDirectory(out)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        let key: PrivateKey
        let request: String
        do {
            key = try PrivateKey.generate(kind)
            request = try key.certificateSigningRequest(subject: subject)
        } catch {
            throw CommandFailure(.checkFailed, error.reason)
        }
        let pin = key.spkiPin.base64
        do throws(SecretFile.Failure) {
            // 0600 from the first byte, whatever the umask (issue 14.9).
            try SecretFile.write(Array(key.privateKeyPEM.utf8), to: paths[0])
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        guard
            FileManager.default.createFile(atPath: paths[1], contents: Data(request.utf8)),
            FileManager.default.createFile(atPath: paths[2], contents: Data((pin + "\n").utf8))
        else { throw CommandFailure(.usage, "cannot write the files in \(out)") }
        let label = subject.last?.value ?? name
        let entry: JSONValue = [
            "sha256": .string(pin), "label": .string(label), "role": "backup", "operatorHeld": true,
        ]
        if json {
            let document: JSONValue = [
                "schemaVersion": .int(1), "pin": .string(pin),
                "files": ["key": .string(paths[0]), "csr": .string(paths[1]), "pin": .string(paths[2])],
                "configurationEntry": entry,
            ]
            console.out(document.serialized(pretty: true))
        } else {
            console.out(
                """
                \(pin)
                wrote \(TerminalText.escaped(paths[0])) (private key, 0600 — keep it offline), \(TerminalText.escaped(paths[1])) and \(TerminalText.escaped(paths[2]))
                add to the pin set: \(TerminalText.escaped(entry.serialized()))
                """)
        }
        return .success
    }
}

public import Foundation

/// A small PKI made with the openssl CLI for tests: root → intermediate → leaf for
/// `api.example.com`, plus a backup key that is in no chain. The CLI is an independent oracle
/// here; the library's own PKI factory is tested against it separately.
public struct CLIPKI: Sendable {
    public let directory: TemporaryDirectory
    /// Leaf, intermediate, root (PEM).
    public var chainPath: String { directory.file("chain.pem") }
    public var rootPath: String { directory.file("root.pem") }
    public var intermediatePath: String { directory.file("intermediate.pem") }
    public var leafPath: String { directory.file("leaf.pem") }
    public var backupKeyPath: String { directory.file("backup.key") }

    public init(leafNames: [String] = ["api.example.com"]) throws {
        directory = try TemporaryDirectory()
        let san = leafNames.map { "DNS:\($0)" }.joined(separator: ",")
        try Shell.bash(
            """
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-384 -nodes -keyout root.key \
              -subj "/O=PinKit Test/CN=Test Root" -days 3650 -out root.pem \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout intermediate.key \
              -subj "/O=PinKit Test/CN=Test Intermediate" -out intermediate.csr 2>/dev/null
            printf 'basicConstraints=critical,CA:TRUE,pathlen:0\\nkeyUsage=critical,keyCertSign,cRLSign\\n' > ca.ext
            openssl x509 -req -in intermediate.csr -CA root.pem -CAkey root.key -CAcreateserial -days 1825 \
              -extfile ca.ext -out intermediate.pem 2>/dev/null
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key \
              -subj "/CN=\(leafNames.first ?? "leaf")" -out leaf.csr 2>/dev/null
            printf 'subjectAltName=\(san)\\nbasicConstraints=CA:FALSE\\n' > leaf.ext
            openssl x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 90 \
              -extfile leaf.ext -out leaf.pem 2>/dev/null
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out backup.key 2>/dev/null
            cat leaf.pem intermediate.pem root.pem > chain.pem
            """,
            directory: directory.url
        )
    }

    /// The pin of a certificate file, from the openssl CLI pipeline.
    public static func opensslPin(certificate path: String) throws -> String {
        try Shell.bash(
            "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pin of a private or public key file, from the openssl CLI pipeline.
    public static func opensslPin(key path: String) throws -> String {
        try Shell.bash(
            "openssl pkey -in '\(path)' -pubout -outform der | openssl dgst -sha256 -binary | base64"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func pins() throws -> (leaf: String, intermediate: String, root: String, backup: String) {
        (
            try Self.opensslPin(certificate: leafPath), try Self.opensslPin(certificate: intermediatePath),
            try Self.opensslPin(certificate: rootPath), try Self.opensslPin(key: backupKeyPath)
        )
    }
}

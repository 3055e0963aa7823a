// swift-tools-version:6.0
import PackageDescription

// Everything here builds from the Swift toolchain and Debian packages alone: no outside
// Swift package can be fetched on the machines this project is built on.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PinKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PinKit", targets: ["PinKit"]),
        .library(name: "PinKitOpenSSL", targets: ["PinKitOpenSSL"]),
        .library(name: "PinKitTransport", targets: ["PinKitTransport"]),
        .library(name: "PinKitClient", targets: ["PinKitClient"]),
        .library(name: "PinKitLab", targets: ["PinKitLab"]),
        .library(name: "PinKitSecretService", targets: ["PinKitSecretService"]),
        .executable(name: "pinctl", targets: ["pinctl"]),
        .library(name: "PinKitCollector", targets: ["PinKitCollector"]),
        .executable(name: "pinkit-collector", targets: ["pinkit-collector"]),
        .executable(name: "pinkit-fleet", targets: ["pinkit-fleet"]),
        .executable(name: "pinkit-keyring-demo", targets: ["pinkit-keyring-demo"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CPinKitShims", dependencies: ["COpenSSL", "CCurl"]),
        // Tokens at rest on Linux: the freedesktop Secret Service through libsecret, behind a C
        // shim so no GLib type reaches Swift.
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .target(name: "CPinKitSecret", dependencies: ["CSecret"]),
        .target(
            name: "PinKitSecretService",
            dependencies: ["PinKit", "PinKitClient", "CPinKitSecret"],
            swiftSettings: strictness
        ),
        // The collector's C libraries: GNU libmicrohttpd (HTTP/HTTPS server), SQLite, libpq.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libmicrohttpd's variadic MHD_start_daemon, closed enums and the per-request deadline, in C.
        .target(name: "CPinKitCollectorShims", dependencies: ["CMicroHTTPD"]),
        // Pure Swift: pins, configuration + guard, host scoping, chain evaluation on
        // platform-neutral certificate facts. No C import, testable without a network.
        .target(name: "PinKit", swiftSettings: strictness),
        // Owns every OpenSSL pointer: certificates, SPKI hashing.
        .target(
            name: "PinKitOpenSSL",
            dependencies: ["PinKit", "COpenSSL", "CPinKitShims"],
            swiftSettings: strictness
        ),
        .target(
            name: "PinKitTransport",
            dependencies: ["PinKit", "PinKitOpenSSL", "COpenSSL", "CCurl", "CPinKitShims"],
            swiftSettings: strictness
        ),
        // The API client: auth, re-auth, idempotency, server change, wiring of reports and audit.
        .target(name: "PinKitClient", dependencies: ["PinKit", "PinKitTransport"], swiftSettings: strictness),
        // Child-process launches kept apart from code holding many descriptors (a Foundation bug).
        .target(name: "PinKitProcessGate", swiftSettings: strictness),
        // A PKI factory and a loopback TLS server for tests, benchmarks and `pinctl lab`.
        .target(
            name: "PinKitLab",
            dependencies: ["PinKit", "PinKitOpenSSL", "COpenSSL", "CPinKitShims", "PinKitProcessGate"],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "pinctl",
            dependencies: [
                "PinKit", "PinKitOpenSSL", "PinKitTransport", "PinKitLab", "PinKitClient", "PinKitCollector",
            ],
            swiftSettings: strictness
        ),
        // The server half: HTTP handlers, storage (SQLite or PostgreSQL), audit anchoring, rollups.
        .target(
            name: "PinKitCollector",
            dependencies: [
                "PinKit", "PinKitOpenSSL", "CMicroHTTPD", "CSQLite", "CPostgres", "CPinKitCollectorShims",
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "pinkit-collector", dependencies: ["PinKit", "PinKitCollector", "PinKitTransport"],
            swiftSettings: strictness
        ),
        // The fleet simulator: the library's schedules in virtual time against a real pinkit-collector.
        .executableTarget(
            name: "pinkit-fleet",
            dependencies: ["PinKit", "PinKitOpenSSL", "PinKitTransport", "PinKitLab", "PinKitProcessGate"],
            swiftSettings: strictness),
        // Prints JSON measurements; never a timed test.
        .executableTarget(
            name: "pinkit-bench",
            dependencies: [
                "PinKit", "PinKitOpenSSL", "PinKitTransport", "PinKitClient", "PinKitLab", "PinKitTestSupport",
                "PinKitCollector",
            ],
            path: "Benchmarks/PinKitBenchmarks",
            swiftSettings: strictness
        ),
        // Helpers shared by the test targets: running the openssl CLI and pinctl, temp dirs.
        .target(
            name: "PinKitTestSupport", dependencies: ["PinKitProcessGate"], path: "Tests/PinKitTestSupport",
            swiftSettings: strictness),
        .testTarget(name: "PinKitTests", dependencies: ["PinKit", "PinKitTestSupport"], swiftSettings: strictness),
        .testTarget(
            name: "PinKitOpenSSLTests",
            dependencies: ["PinKit", "PinKitOpenSSL", "PinKitTestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinKitTransportTests",
            dependencies: [
                "PinKit", "PinKitOpenSSL", "PinKitTransport", "PinKitLab", "PinKitTestSupport", "PinKitProcessGate",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinKitClientTests",
            dependencies: ["PinKit", "PinKitClient", "PinKitTransport", "PinKitLab", "PinKitTestSupport"],
            swiftSettings: strictness
        ),
        // Drives SecretServiceCredentialStore (and an APIClient on it) in a process of its own,
        // for `pinctl lab` and the tests: a restart needs a second process, and libsecret only
        // talks to its process's session bus. Its own executable, so pinctl never links libsecret.
        .executableTarget(
            name: "pinkit-keyring-demo",
            dependencies: ["PinKit", "PinKitClient", "PinKitTransport", "PinKitSecretService"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinKitSecretServiceTests",
            dependencies: [
                "PinKit", "PinKitClient", "PinKitSecretService", "PinKitTransport", "PinKitLab", "PinKitTestSupport",
                "pinkit-keyring-demo",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinctlTests",
            dependencies: [
                "pinctl", "pinkit-keyring-demo", "PinKit", "PinKitOpenSSL", "PinKitLab", "PinKitTestSupport",
                "PinKitProcessGate",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinKitCollectorTests",
            dependencies: [
                "pinkit-collector", "PinKit", "PinKitOpenSSL", "PinKitCollector", "PinKitLab", "PinKitTestSupport",
                "pinkit-fleet", "PinKitProcessGate",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PinKitFleetTests",
            dependencies: ["pinkit-fleet", "pinkit-collector", "PinKit", "PinKitTestSupport"],
            swiftSettings: strictness),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// libFuzzer targets for every parser of PinKit. Built only by Fuzz/run.sh (never by a plain
// `swift test` of the main package): swift build -Xswiftc -sanitize=fuzzer,address.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between checkouts.
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let identity = parent.lastPathComponent.lowercased()

let targets = [
    ("FuzzConfiguration", ["PinKit"]), ("FuzzPins", ["PinKit"]), ("FuzzKillSwitch", ["PinKit", "PinKitOpenSSL"]),
    ("FuzzCertificates", ["PinKit", "PinKitOpenSSL"]), ("FuzzHostPatterns", ["PinKit"]), ("FuzzSanitizer", ["PinKit"]),
    ("FuzzReportStore", ["PinKit"]), ("FuzzAuditLog", ["PinKit"]), ("FuzzSPKI", ["PinKit"]),
]

let package = Package(
    name: "PinKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [.target(name: "FuzzSupport")]
        + targets.map { name, products in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: identity) },
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]
            )
        }
)

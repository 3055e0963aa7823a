import Foundation
import PinKit
import PinKitLab

extension LabStory {
    static let keyringScenario = "tokens survive a restart, never in a file"

    /// Tokens at rest on Linux, for real: a private D-Bus session with gnome-keyring unlocked by
    /// a non-empty password, HOME in the lab directory. One `pinkit-keyring-demo` process logs
    /// in through `APIClient` with `SecretServiceCredentialStore` and exits; a second one makes
    /// an authenticated call with the stored tokens, without logging in. Then every file under
    /// the lab directory (HOME, the keyring's own encrypted file, the app's and the lab's logs)
    /// and both processes' output are scanned for the tokens: none. A third run with the demo's
    /// naive plain-file store shows that the same scan finds a token when one is on disk.
    ///
    /// The demo is a separate executable so that pinctl never links libsecret. Without it, or
    /// without dbus and gnome-keyring, the row is *unavailable* and says what to install; with
    /// them, anything that goes wrong (a keyring that does not start included) fails the row.
    func keyringRow(caFile: String, pki: LabPKI) throws -> Row {
        func row(_ happened: String, ok: Bool, unavailable: Bool = false) -> Row {
            Row(
                scenario: Self.keyringScenario,
                expected: "a restarted process calls without a new login; no token in any file or log",
                happened: happened, ok: ok, unavailable: unavailable)
        }
        let demo = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("pinkit-keyring-demo").path
        guard let demo, FileManager.default.isExecutableFile(atPath: demo) else {
            return row(
                "unavailable: build pinkit-keyring-demo beside pinctl (swift build --product pinkit-keyring-demo)",
                ok: false, unavailable: true)
        }
        let missing = PrivateSecretService.missingPackages()
        guard missing.isEmpty else {
            return row(
                "unavailable: install \(missing.joined(separator: " and ")) (Debian packages; scripts/setup installs them)",
                ok: false, unavailable: true)
        }
        let home = (directory as NSString).appendingPathComponent("keyring-home")
        let keyring: PrivateSecretService
        do {
            keyring = try PrivateSecretService(password: "lab keyring \(UUID().uuidString)", home: home)
        } catch {
            return row("the keyring did not start: \(TerminalText.escaped("\(error)"))", ok: false)
        }
        defer { keyring.stop() }
        let api = LabTokenServer()
        let server = try LabTLSServer(identity: try pki.leaf(["api.example.com"])) { api.handle($0) }
        defer { server.stop() }
        let config = (directory as NSString).appendingPathComponent("keyring-pinkit.json")
        try """
        {"pinSets": [{"name": "lab", "hosts": ["api.example.com"],
          "pins": [{"sha256": "\(pki.intermediate.pin.base64)"}, {"sha256": "\(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        var environment = keyring.environment
        environment["PATH"] = "/usr/bin:/bin"
        // A sanitizer build's demo ends mid-session, as an app does, leaving libcurl's and
        // OpenSSL's process globals allocated; leak checking is for the processes that own them.
        // The caller's other sanitizer options (suppressions) still apply.
        let sanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { [$0] } ?? []
        environment["ASAN_OPTIONS"] = (sanitizer + ["detect_leaks=0"]).joined(separator: ":")
        environment["LSAN_OPTIONS"] = ProcessInfo.processInfo.environment["LSAN_OPTIONS"]
        var output = ""
        /// One app run: a fresh demo process doing `steps`.
        func appRun(_ steps: String, _ extra: [String] = []) throws -> Bool {
            let result = try LabProcess.run(
                demo,
                [
                    "api-session", server.url(host: "api.example.com"), "default", caFile,
                    server.resolveEntry(for: "api.example.com"), config, keyring.file("app.log"),
                    LabTokenServer.password, steps,
                ] + extra, environment: environment)
            output += result.stdout + result.stderr
            return result.status == 0
        }
        guard try appRun("login") else {
            return row("the login run failed: \(TerminalText.escaped(String(output.suffix(400))))", ok: false)
        }
        let restarted = try appRun("get")
        let sessionTokens = api.issued
        let (logins, calls) = (api.logins, api.authorizedCalls)
        // The naive store, in the same HOME: what the scan finds when a token is on disk.
        let plainFile = keyring.file(".config/pinkit-demo/tokens.json")
        let naive = try appRun("login", ["--plain-file-store", plainFile])
        let naiveTokens = api.issued.filter { !sessionTokens.contains($0) }

        let files = PrivateSecretService.files(under: directory)
        let holding = PrivateSecretService.files(files, holdingAnyOf: sessionTokens)
        let inOutput = sessionTokens.filter { output.contains($0) }
        let naiveFound = PrivateSecretService.files(files, holdingAnyOf: naiveTokens)
        let keyringFiles = keyring.keyringFiles
        let logged = output.contains("logged in")
        func relative(_ path: String) -> String {
            path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
        }
        let ok =
            restarted && logins == 1 && calls == 1 && sessionTokens.count == 2 && !keyringFiles.isEmpty
            && holding.isEmpty && inOutput.isEmpty && logged && naive && naiveFound == [plainFile]
        return row(
            "restarted process: call \(restarted ? "authorised" : "REFUSED") with \(logins) login(s); "
                + "token in \(holding.count) of \(files.count) files (\(keyringFiles.count) keyring file(s) "
                + "included) and \(inOutput.count) in the logs; a plain-file store: found in "
                + (naiveFound.isEmpty ? "no file" : naiveFound.map(relative).joined(separator: ", "))
                + (ok ? "" : "; the demo said: \(TerminalText.escaped(String(output.suffix(400))))"),
            ok: ok)
    }
}

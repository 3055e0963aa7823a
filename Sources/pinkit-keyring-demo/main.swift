// pinkit-keyring-demo: an app's runs, one process each, with its tokens in the Secret Service.
// `pinctl lab` runs it for the row "tokens survive a restart, never in a file", and the Secret
// Service tests run it for every store operation. libsecret talks only to its process's session
// bus, so the caller starts it with DBUS_SESSION_BUS_ADDRESS (and HOME) set to a private
// keyring's; and what one process saves, another loads. It is an executable of its own so that
// `pinctl` never links libsecret.
//
//   save URL ACCOUNT ACCESS REFRESH      load URL ACCOUNT (prints ACCESS and REFRESH, or "none")
//   clear URL ACCOUNT                    count URL ACCOUNT (token items, locked or not)
//   save-raw URL ACCOUNT SECRET          the token item's secret verbatim (another program's write)
//   switch URL ACCOUNT NEW-URL           restore DEFAULT-URL ACCOUNT (prints the server)
//   concurrent-saves URL ACCOUNT N       N tasks save (access-i, refresh-i) at once
//   api-session URL ACCOUNT CA-FILE RESOLVE CONFIG LOG-FILE PASSWORD STEPS [--plain-file-store FILE]
//       an APIClient on the store runs STEPS (comma-separated: login, get = GET /v1/profile,
//       logout); it logs to LOG-FILE and standard error. With --plain-file-store the tokens go
//       to FILE as JSON instead: the naive store PinKit refuses to be, there only so that the
//       lab can show its scan finding what such a store leaves on disk.
//
// Exit 0 on success; 1 with "CODE: message" on stderr; 2 on bad usage.
import Foundation
import PinKit
import PinKitClient
import PinKitSecretService
import PinKitTransport

func fail(_ text: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((text + "\n").utf8))
    exit(status)
}

struct Profile: Decodable, Sendable { let name: String }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let url = URL(string: arguments[1]) else {
    fail("usage: pinkit-keyring-demo COMMAND URL ACCOUNT [...]", status: 2)
}
let store = SecretServiceCredentialStore(server: url, account: arguments[2])
do {
    switch (arguments[0], arguments.count) {
    case ("save", 5):
        try await store.save(Tokens(accessToken: arguments[3], refreshToken: arguments[4]))
    case ("save-raw", 4):
        try await store.saveRawTokenItem(arguments[3])
    case ("load", 3):
        if let tokens = try await store.load() {
            print(tokens.accessToken)
            print(tokens.refreshToken)
        } else {
            print("none")
        }
    case ("clear", 3):
        try await store.clear()
    case ("count", 3):
        print(try await store.tokenItemCount(server: url))
    case ("switch", 4):
        try await store.serverChanged(to: URL(string: arguments[3])!)
    case ("restore", 3):
        print(try await SecretServiceCredentialStore.restoring(defaultServer: url, account: arguments[2]).server)
    case ("concurrent-saves", 4):
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<(Int(arguments[3]) ?? 0) {
                group.addTask {
                    try await store.save(Tokens(accessToken: "access-\(index)", refreshToken: "refresh-\(index)"))
                }
            }
            try await group.waitForAll()
        }
    case ("api-session", 9), ("api-session", 11):
        let (caFile, resolve, config, logFile, password, steps) = (
            arguments[3], arguments[4], arguments[5], arguments[6], arguments[7], arguments[8]
        )
        var credentials: any CredentialStore = store
        if arguments.count == 11 {
            guard arguments[9] == "--plain-file-store" else { fail("unknown option \(arguments[9])", status: 2) }
            credentials = PlainFileCredentialStore(path: arguments[10])
        }
        var configuration = APIClient.Configuration(
            baseURL: url, policy: try PinPolicy(PinConfiguration.load(contentsOf: config)), credentials: credentials)
        configuration.transport = { settings in
            settings.trustStore = .caFile(caFile)
            settings.resolve = [resolve]
        }
        configuration.logger = RedactingLogger(
            category: "app",
            configuration: .development(sinks: [.standardError, try .jsonLinesFile(path: logFile)]))
        let api = try APIClient(configuration)
        do {
            for step in steps.split(separator: ",") {
                switch step {
                case "login": try await api.login(username: "ada", password: password)
                case "get": _ = try await api.get("/v1/profile", as: Profile.self)
                case "logout": try await api.logout()
                default: fail("unknown step \(step)", status: 2)
                }
            }
        } catch {
            fail("\(error.code): \(error.message)", status: 1)
        }
    default:
        fail("unknown command or wrong argument count", status: 2)
    }
} catch let error as CredentialStoreError {
    fail("\(error.code): \(error.reason). \(error.remedy)", status: 1)
} catch {
    fail("error: \(error)", status: 1)
}

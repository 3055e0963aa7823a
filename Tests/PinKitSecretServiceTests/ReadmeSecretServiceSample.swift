// README "The API client", the Secret Service sample, compiled with the tests so the README cannot
// drift from the API. Not run here: it joins the process's session bus, and these tests keep the
// test process off every bus (each store call runs in pinkit-keyring-demo on a private bus).
import Foundation
import PinKit
import PinKitClient
import PinKitSecretService

func readmeSecretServiceSample(policy: PinPolicy) async throws -> APIClient.Configuration {
    // The server saved by the last switchServer(to:), or the default; tokens are per server.
    let store = try await SecretServiceCredentialStore.restoring(defaultServer: URL(string: "https://api.example.com")!)
    let configuration = APIClient.Configuration(baseURL: store.server, policy: policy, credentials: store)
    return configuration
}

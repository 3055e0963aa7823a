// The credential store's errors as the API client's: `APIClient`'s methods throw `APIError`.
extension CredentialStore {
    func loadTokens() async throws(APIError) -> Tokens? {
        do { return try await load() } catch { throw APIError(error) }
    }

    func saveTokens(_ tokens: Tokens) async throws(APIError) {
        do { try await save(tokens) } catch { throw APIError(error) }
    }

    func clearTokens() async throws(APIError) {
        do { try await clear() } catch { throw APIError(error) }
    }
}

extension APIError {
    var isCredentialStoreError: Bool { code == .credentialStoreUnavailable || code == .credentialStoreFailed }

    init(_ error: CredentialStoreError) {
        self.init(Code(rawValue: error.code.rawValue), "\(error.reason). \(error.remedy)")
    }
}

extension CollectorAPI {
    /// `GET /`: the operator console. The token comes as `Authorization: Bearer` or, so a plain
    /// browser can open it, as `?token=`; either way it is checked like any operator request and
    /// never echoed, logged or written into the page (the sections link by fragment, the other
    /// console pages by path, never with the token). The session cookie of a sign-in works too.
    func console(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.problem(
                405, "method-not-allowed", "\(request.method) is not allowed here", headers: [("Allow", "GET, HEAD")])
        }
        let signedIn =
            configuration.operatorTokens != nil
            && sessions.session(id: request.cookie(ConsoleSessions.cookieName), now: now()) != nil
        if !signedIn {
            var authorized = request
            if authorized.header("authorization") == nil, let token = request.query["token"] {
                authorized.headers["authorization"] = "Bearer " + token
            }
            if case .failure(let response) = authorize(authorized) { return response }
        }
        let data: ConsoleData
        do {
            data = try ConsoleData.load(from: storage, configuration: configuration, now: now())
        } catch {
            return Self.storageFailure(error)
        }
        let body = Array(ConsolePage().render(data).utf8)
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Security-Policy", ConsolePage.contentSecurityPolicy),
                // The URL may carry the token: never cached, never sent on as a referrer.
                ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
                ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ],
            body: request.method == "HEAD" ? [] : body)
    }
}

import Foundation
import PinKit
import PinKitOpenSSL

/// The console's forms: sign-in, the rotation check (POST, then redirect to a GET result), the
/// deadlines page and its calendar.
///
/// Authentication: a GET page takes `Authorization: Bearer`, `?token=` (checked like any
/// operator request, never echoed) or the session cookie. A form POST takes either a Bearer
/// token (a script: no CSRF token needed, no cookie involved) or the session cookie *and* the
/// session's CSRF token in the form. Opening the rotation-check form with a token starts a
/// session, so the form it shows can be submitted.
extension CollectorAPI {
    static let maximumChainBytes = 256 * 1024
    static let maximumChainCertificates = 16

    /// The response for a console form route, or nil when `request` is for another route.
    func consoleForms(_ request: HTTPRequest) -> HTTPResponse? {
        if request.method == "POST", ["/login", "/logout", "/rotation-check"].contains(request.path),
            let refused = crossSiteRefusal(request)
        {
            return refused
        }
        switch (request.path, request.method) {
        case ("/login", "GET"), ("/login", "HEAD"): return operatorsEnabled(request) ?? html(200, forms.login())
        case ("/login", "POST"): return login(request)
        case ("/logout", "POST"): return logout(request)
        case ("/rotation-check", "GET"), ("/rotation-check", "HEAD"): return rotationForm(request)
        case ("/rotation-check", "POST"): return submitRotationCheck(request)
        case ("/rotation-check/result", "GET"), ("/rotation-check/result", "HEAD"): return rotationResult(request)
        case ("/deadlines", "GET"), ("/deadlines", "HEAD"): return deadlinesPage(request)
        case ("/deadlines.ics", "GET"), ("/deadlines.ics", "HEAD"): return calendar(request)
        case ("/login", _), ("/logout", _), ("/rotation-check", _), ("/rotation-check/result", _), ("/deadlines", _),
            ("/deadlines.ics", _):
            let allowed =
                request.path == "/logout"
                ? "POST"
                : request.path.hasPrefix("/login")
                    ? "GET, HEAD, POST"
                    : request.path == "/rotation-check" ? "GET, HEAD, POST" : "GET, HEAD"
            return html(
                405, forms.error(title: "Method not allowed", detail: "\(request.method) is not allowed here"),
                headers: [("Allow", allowed)])
        default: return nil
        }
    }

    var forms: ConsoleFormsPage { ConsoleFormsPage() }

    // MARK: Authentication

    /// Who is asking, and their session when they came with the cookie.
    struct ConsoleCaller {
        var operatorName: String
        var session: (id: String, session: ConsoleSessions.Session)?
    }

    private func operatorsEnabled(_ request: HTTPRequest) -> HTTPResponse? {
        configuration.operatorTokens == nil
            ? Self.problem(404, "not-found", "the operator API is not enabled (--operator-token-file)") : nil
    }

    /// The session cookie, else a Bearer token, else (`allowQueryToken`) `?token=`; 401 with the
    /// sign-in form when none is valid.
    private func consoleCaller(_ request: HTTPRequest, allowQueryToken: Bool) -> Result<ConsoleCaller, HTTPResponse> {
        if let disabled = operatorsEnabled(request) { return .failure(disabled) }
        if let wait = addressLimiter.take("a:" + request.clientAddress, now: now()) {
            return .failure(
                html(
                    429, forms.error(title: "Too many requests", detail: "too many requests; retry later"),
                    headers: [("Retry-After", String(wait))]))
        }
        if let id = request.cookie(ConsoleSessions.cookieName), let session = sessions.session(id: id, now: now()) {
            return .success(ConsoleCaller(operatorName: session.operatorName, session: (id, session)))
        }
        var authorized = request
        if authorized.header("authorization") == nil, allowQueryToken, let token = request.query["token"] {
            authorized.headers["authorization"] = "Bearer " + token
        }
        if authorized.header("authorization") != nil,
            let name = configuration.operatorTokens?.operatorName(authorization: authorized.header("authorization"))
        {
            return .success(ConsoleCaller(operatorName: name, session: nil))
        }
        return .failure(
            html(
                401,
                forms.login(message: "Sign in with your operator token (the session may have expired)."),
                headers: [("WWW-Authenticate", "Bearer")]))
    }

    private func sessionCookie(_ id: String, maxAge: Int) -> (String, String) {
        (
            "Set-Cookie",
            "\(ConsoleSessions.cookieName)=\(id); Path=/; Max-Age=\(maxAge); HttpOnly; Secure; SameSite=Strict"
        )
    }

    private func login(_ request: HTTPRequest) -> HTTPResponse {
        if let disabled = operatorsEnabled(request) { return disabled }
        if request.bodyTooLarge || request.body.count > 4096 {
            return html(413, forms.error(title: "Too large", detail: "the sign-in form is over 4 KiB"))
        }
        guard let form = request.form, !request.formMalformed else {
            return html(400, forms.error(title: "Bad request", detail: "expected a submitted sign-in form"))
        }
        let token = form.first { $0.name == "token" }?.text ?? ""
        let bearer = HTTPRequest(
            method: "POST", path: request.path, headers: ["authorization": "Bearer " + token],
            clientAddress: request.clientAddress)
        switch authorize(bearer) {
        case .failure(let response) where response.status == 429:
            return html(429, forms.error(title: "Too many requests", detail: "too many attempts; retry later"))
        case .failure:
            return html(401, forms.login(message: "That token was not accepted."))
        case .success(let name):
            let (id, _) = sessions.open(operatorName: name, now: now())
            return HTTPResponse(
                status: 303,
                headers: Self.htmlHeaders + [("Location", "/rotation-check"), sessionCookie(id, maxAge: 1800)])
        }
    }

    private func logout(_ request: HTTPRequest) -> HTTPResponse {
        let caller: ConsoleCaller
        switch consoleCaller(request, allowQueryToken: false) {
        case .failure(let response): return response
        case .success(let found): caller = found
        }
        guard let session = caller.session else {
            return html(400, forms.error(title: "Not signed in", detail: "there is no session to end"))
        }
        if let refused = csrfRefusal(request, session: session.session) { return refused }
        sessions.close(id: session.id)
        return HTTPResponse(
            status: 303, headers: Self.htmlHeaders + [("Location", "/login"), sessionCookie("", maxAge: 0)])
    }

    /// 403 for a form a browser says came from another site (`Sec-Fetch-Site` other than
    /// `same-origin`, or `none` for a navigation the operator started), before anything else
    /// runs. Sign-in needs this: it has no session, so no CSRF token, and a forged sign-in with
    /// the attacker's token would put the operator in the attacker's session. Scripts and old
    /// browsers send no such header; the token checks alone judge them.
    private func crossSiteRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard configuration.checksCSRF, let site = request.header("sec-fetch-site"), site != "same-origin",
            site != "none"
        else { return nil }
        return html(
            403,
            forms.error(
                title: "Forbidden",
                detail: "this form was submitted from another site; open the collector's own page and submit it there"))
    }

    /// 400 for a body that is not the form, 403 for a missing or wrong CSRF token.
    private func csrfRefusal(_ request: HTTPRequest, session: ConsoleSessions.Session) -> HTTPResponse? {
        guard let form = request.form, !request.formMalformed else {
            return html(
                400,
                forms.error(
                    title: "Bad request",
                    detail: "the body is not a well-formed form (multipart/form-data or urlencoded)"))
        }
        guard configuration.checksCSRF else { return nil }
        guard ConsoleSessions.tokensMatch(form.first { $0.name == "csrf" }?.text, session.csrfToken) else {
            return html(
                403,
                forms.error(
                    title: "Forbidden",
                    detail: "the form's CSRF token is missing or wrong: reload the rotation-check page and submit again"
                ))
        }
        return nil
    }

    // MARK: Rotation check

    private func rotationForm(_ request: HTTPRequest) -> HTTPResponse {
        let caller: ConsoleCaller
        switch consoleCaller(request, allowQueryToken: true) {
        case .failure(let response): return response
        case .success(let found): caller = found
        }
        var headers: [(String, String)] = []
        let session: ConsoleSessions.Session
        if let existing = caller.session {
            session = existing.session
        } else {
            // Came with a token: a session for the form's POST (cookie + CSRF token).
            let opened = sessions.open(operatorName: caller.operatorName, now: now())
            session = opened.session
            headers.append(sessionCookie(opened.id, maxAge: 1800))
        }
        return html(
            200,
            forms.rotationForm(
                csrf: session.csrfToken, operatorName: caller.operatorName,
                configured: configuration.consoleReleases != nil),
            headers: headers, head: request.method == "HEAD")
    }

    private func submitRotationCheck(_ request: HTTPRequest) -> HTTPResponse {
        if request.bodyTooLarge || request.body.count > Self.maximumChainBytes {
            return html(
                413,
                forms.error(
                    title: "Upload too large", detail: "the upload is over \(Self.maximumChainBytes / 1024) KiB"))
        }
        // A form POST never takes ?token=: a Bearer header (scripts) or the session cookie.
        let caller: ConsoleCaller
        switch consoleCaller(request, allowQueryToken: false) {
        case .failure(let response): return response
        case .success(let found): caller = found
        }
        if request.header("authorization") != nil, caller.session == nil {
            guard request.form != nil, !request.formMalformed else {
                return html(400, forms.error(title: "Bad request", detail: "the body is not a well-formed form"))
            }
        } else if let session = caller.session {
            if let refused = csrfRefusal(request, session: session.session) { return refused }
        }
        guard let releases = configuration.consoleReleases else {
            return html(
                409,
                forms.error(
                    title: "Not configured", detail: "no release history is configured (serve --releases FILE)"))
        }
        let file = request.formValue("chain")?.value ?? []
        let pem = file.isEmpty ? request.formValue("chainText")?.value ?? [] : file
        let host = request.formValue("host")?.text.trimmingCharacters(in: .whitespaces) ?? ""
        guard host.isEmpty || Self.isHostName(host) else {
            return html(422, forms.error(title: "Not a host name", detail: "the host field is not a DNS name"))
        }
        let at = now()
        let rendered: String
        switch rotationCheck(pem: pem, host: host.isEmpty ? nil : host, releases: releases, now: at) {
        case .failure(let response): return response
        case .success(let html): rendered = html
        }
        let id = sessions.store(result: rendered, operatorName: caller.operatorName, now: at)
        return HTTPResponse(
            status: 303, headers: Self.htmlHeaders + [("Location", "/rotation-check/result?id=\(id)")])
    }

    /// The CLI's decision on an uploaded chain: CertificatePathBuilder's paths, the measured
    /// installed base applied to the history, RotationCheck. - Returns: the result section.
    func rotationCheck(pem: [UInt8], host: String?, releases: ConsoleReleases, now at: Date) -> Result<
        String, HTTPResponse
    > {
        let text = String(decoding: pem, as: UTF8.self)
        let blocks = text.components(separatedBy: "-----BEGIN ").count - 1
        guard blocks <= Self.maximumChainCertificates else {
            return .failure(
                html(
                    422,
                    forms.error(
                        title: "Too many certificates",
                        detail: "the upload has \(blocks) PEM blocks; at most \(Self.maximumChainCertificates)")))
        }
        let served: [X509Certificate]
        do {
            served = try X509Certificate.load(bytes: pem)
        } catch {
            return .failure(
                html(422, forms.error(title: "Not a certificate chain", detail: "the upload: \(error.reason)")))
        }
        let shares: [String: Double]
        do {
            let base = try storage.installedBase(window: configuration.installedBaseWindow, now: at)
            shares = Dictionary(base.map { ($0.version, $0.share) }, uniquingKeysWith: max)
        } catch {
            return .failure(
                html(503, forms.error(title: "Storage unavailable", detail: "the installed base could not be read")))
        }
        let history = releases.history.applyingMeasuredShares(shares, now: at)
        let search = CertificatePathBuilder(trustStore: releases.trustStore).paths(for: served, at: at)
        let check = RotationCheck(
            history: history, paths: search.paths.map(\.facts),
            host: host ?? served.first.map { RotationCheck.defaultHost(leaf: $0.facts) }, now: at,
            allPathsFound: !search.truncated)
        return .success(
            forms.rotationResult(check, search: search, window: configuration.installedBaseWindow, checkedAt: at))
    }

    private func rotationResult(_ request: HTTPRequest) -> HTTPResponse {
        let caller: ConsoleCaller
        switch consoleCaller(request, allowQueryToken: true) {
        case .failure(let response): return response
        case .success(let found): caller = found
        }
        guard let section = sessions.result(id: request.query["id"], operatorName: caller.operatorName, now: now())
        else {
            return html(
                404,
                forms.error(
                    title: "No such result",
                    detail:
                        "this result does not exist, has expired (results are kept 10 minutes) or belongs to another operator"
                ))
        }
        return html(
            200, forms.document(title: "Rotation check result", body: section), head: request.method == "HEAD")
    }

    static func isHostName(_ host: String) -> Bool {
        host.utf8.count <= 253
            && host.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                    || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "*"
            }
    }

    // MARK: Deadlines

    private func deadlineInputs(_ request: HTTPRequest) -> Result<
        (ReleaseHistory, KeyDeadlines, ConsoleReleases), HTTPResponse
    > {
        if case .failure(let response) = consoleCaller(request, allowQueryToken: true) { return .failure(response) }
        guard let releases = configuration.consoleReleases else {
            return .failure(
                html(
                    409,
                    forms.error(
                        title: "Not configured", detail: "no release history is configured (serve --releases FILE)")))
        }
        let shares: [String: Double]
        do {
            let base = try storage.installedBase(window: configuration.installedBaseWindow, now: now())
            shares = Dictionary(base.map { ($0.version, $0.share) }, uniquingKeysWith: max)
        } catch {
            return .failure(
                html(503, forms.error(title: "Storage unavailable", detail: "the installed base could not be read")))
        }
        let history = releases.history.applyingMeasuredShares(shares, now: now())
        let certificates = releases.trustStore.map(\.facts)
        // The CLI's computation per release configuration (`pinctl deadlines --config`), merged;
        // each release's keys are held against its own support (a live set keeps it supported).
        let deadlines = KeyDeadlines(
            merging: history.releases.map {
                KeyDeadlines(
                    configuration: $0.configuration, certificates: certificates,
                    history: ReleaseHistory(releases: [$0]))
            })
        return .success((history, deadlines, releases))
    }

    private func deadlinesPage(_ request: HTTPRequest) -> HTTPResponse {
        switch deadlineInputs(request) {
        case .failure(let response): return response
        case .success(let (history, deadlines, releases)):
            let killSwitch: KillSwitchPublication?
            do {
                killSwitch = try storage.currentKillSwitch()
            } catch {
                return html(
                    503, forms.error(title: "Storage unavailable", detail: "the kill switch could not be read"))
            }
            return html(
                200,
                forms.deadlines(
                    history: history, deadlines: deadlines, leads: releases.leads, killSwitch: killSwitch, now: now()),
                head: request.method == "HEAD")
        }
    }

    /// The same calendar `pinctl deadlines --ics` writes, from the same writer.
    private func calendar(_ request: HTTPRequest) -> HTTPResponse {
        switch deadlineInputs(request) {
        case .failure(let response): return response
        case .success(let (_, deadlines, releases)):
            let text = ICalendar.deadlines(deadlines, leads: releases.leads, stamp: now())
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "text/calendar; charset=utf-8"),
                    ("Content-Disposition", "attachment; filename=\"pinkit-deadlines.ics\""),
                    ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                ],
                body: request.method == "HEAD" ? [] : Array(text.utf8))
        }
    }

    // MARK: Responses

    static let htmlHeaders: [(String, String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", ConsolePage.contentSecurityPolicy),
        ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
    ]

    func html(_ status: Int, _ page: String, headers: [(String, String)] = [], head: Bool = false) -> HTTPResponse {
        HTTPResponse(status: status, headers: Self.htmlHeaders + headers, body: head ? [] : Array(page.utf8))
    }
}

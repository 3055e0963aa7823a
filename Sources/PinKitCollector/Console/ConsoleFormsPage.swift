public import Foundation
public import PinKit
public import PinKitOpenSSL

/// The console's other pages: sign-in, the rotation check (form and result), the pin-set
/// deadlines, and error pages. Same rules as ``ConsolePage``: no script, nothing loaded from
/// elsewhere, every string from a file, an upload or the database through `escape`.
public struct ConsoleFormsPage: Sendable {
    private let escape: @Sendable (String) -> String

    /// - Parameter escape: ``HTMLText/escaped(_:)``; tests swap it to show the attack it stops.
    public init(escape: @escaping @Sendable (String) -> String = HTMLText.escaped) {
        self.escape = escape
    }

    /// A whole page around `body` (already escaped or generated).
    func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · PinKit collector console</title>
        <style>\(ConsolePage.style)\(Self.formStyle)</style></head><body>
        <header><h1>\(title)</h1>
        <nav aria-label="Console pages"><ul><li><a href="/">Overview</a></li>
        <li><a href="/rotation-check">Rotation check</a></li><li><a href="/deadlines">Deadlines</a></li></ul></nav>
        </header><main>
        \(body)
        </main></body></html>

        """
    }

    /// The sign-in form: the operator token is exchanged for a session cookie.
    public func login(message: String? = nil) -> String {
        var body = ""
        if let message { body += "<p class=\"error\" role=\"alert\">" + escape(message) + "</p>" }
        body += """
            <form method="post" action="/login" enctype="application/x-www-form-urlencoded">
            <p><label for="token">Operator token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required></p>
            <p><button type="submit">Sign in</button></p>
            </form>
            <p>Signing in sets a session cookie (HttpOnly, SameSite=Strict) for 30 minutes; the token
            itself is not stored in the browser.</p>
            """
        return document(title: "Sign in", body: body)
    }

    /// An error page: what went wrong and what to do, nothing from the request but `detail`.
    public func error(title: String, detail: String) -> String {
        document(
            title: escape(title),
            body: "<p class=\"error\" role=\"alert\">" + escape(detail)
                + "</p><p><a href=\"/rotation-check\">Back to the rotation check</a></p>")
    }

    /// The upload form; `csrf` is the session's token, `configured` false without `--releases`.
    public func rotationForm(csrf: String, operatorName: String, configured: Bool) -> String {
        var body = "<p>Signed in as " + escape(operatorName) + ".</p>"
        guard configured else {
            return document(
                title: "Rotation check",
                body: body
                    + "<p class=\"error\">No release history is configured: start the collector with --releases FILE (and --trust-store FILE).</p>"
            )
        }
        body += """
            <p>Upload the candidate chain (PEM, leaf first; at most \(CollectorAPI.maximumChainCertificates)
            certificates, \(CollectorAPI.maximumChainBytes / 1024) KiB). Every path a device could build to
            the configured trust store is checked against every installed release, with the installed
            shares this collector measured: the decision <code>pinctl rotation-check</code> makes.</p>
            <form method="post" action="/rotation-check" enctype="multipart/form-data">
            <input type="hidden" name="csrf" value="\(escape(csrf))">
            <p><label for="chain-file">Chain file (PEM)</label>
            <input id="chain-file" name="chain" type="file" accept=".pem,.crt,application/x-pem-file"></p>
            <p><label for="chain-text">or paste the chain (PEM)</label><br>
            <textarea id="chain-text" name="chainText" rows="12" cols="72"></textarea></p>
            <p><label for="host">Host (default: the leaf's first name)</label>
            <input id="host" name="host" type="text" inputmode="url" maxlength="253"></p>
            <p><button type="submit">Check the chain</button></p>
            </form>
            <form method="post" action="/logout" enctype="application/x-www-form-urlencoded">
            <input type="hidden" name="csrf" value="\(escape(csrf))">
            <p><button type="submit">Sign out</button></p>
            </form>
            """
        return document(title: "Rotation check", body: body)
    }

    /// The verdict as a page section, stored until the GET after the redirect.
    public func rotationResult(
        _ check: RotationCheck, search: CertificatePathBuilder.Result, window: TimeInterval, checkedAt: Date
    ) -> String {
        var html = "<section aria-labelledby=\"verdict\"><h2 id=\"verdict\">"
        html += check.isSafe ? "SAFE: no installed release would be bricked" : "UNSAFE"
        html += "</h2><p>Host <code>" + escape(check.host) + "</code>, checked at "
        html += "<time datetime=\"\(RFC3339.format(checkedAt))\">\(RFC3339.format(checkedAt))</time> against "
        html += "the installed base of the last \(Int(window / 86_400)) days.</p>"
        if !check.problems.isEmpty {
            html += "<ul class=\"problems\">"
            for problem in check.problems {
                html += "<li><code>" + escape(problem.code.rawValue) + "</code>: " + escape(problem.message) + "</li>"
            }
            html += "</ul>"
        }
        html += "</section><section aria-labelledby=\"releases-title\"><h2 id=\"releases-title\">Releases</h2>"
        html += "<table><caption>Installed releases and whether the chain keeps them working</caption><thead><tr>"
        html += ConsolePage.columnHeaders(["Release", "Installed", "Verdict", "Matched pin", "Backup pins"])
        html += "</tr></thead><tbody>"
        for result in check.releases {
            let installed =
                result.installed
                ? (result.installedShare.map { String(format: "%.1f %%", $0 * 100) } ?? "yes") : "no"
            var verdict = "bricked"
            var pin = "-"
            switch result.evaluation {
            case .matched(let match):
                verdict = "works (depth \(match.depth - 1) from the leaf)"
                pin = escape(match.label ?? match.pin.base64)
            case .unpinnedHost: verdict = "not pinned for this host"
            case .pinSetExpired: verdict = "pin set expired (fails open)"
            case .mismatch: verdict = result.installed ? "<strong>BRICKED</strong>" : "no match (not installed)"
            }
            html += "<tr><th scope=\"row\">" + escape(result.version) + "</th><td>\(installed)</td><td>\(verdict)</td>"
            html += "<td>\(pin)</td><td>\(result.backupPins.isEmpty ? "none" : "\(result.backupPins.count)")</td></tr>"
        }
        if check.releases.isEmpty { html += "<tr><td colspan=\"5\">No release in the history.</td></tr>" }
        html += "</tbody></table></section>"
        html += "<section aria-labelledby=\"paths-title\"><h2 id=\"paths-title\">Paths checked</h2><ol>"
        for path in check.paths {
            html += "<li>" + path.map { "<code>" + escape($0.subject) + "</code>" }.joined(separator: " ← ") + "</li>"
        }
        html += "</ol>"
        if check.paths.isEmpty { html += "<p>No path reaches a root of the trust store.</p>" }
        for refused in search.rejected {
            html += "<p>Refused path (" + escape(refused.reason) + "): "
            html += refused.certificates.map { "<code>" + escape($0.subject) + "</code>" }.joined(separator: " ← ")
            html += "</p>"
        }
        return html + "</section>"
    }

    /// The deadlines page: each release's pin sets with their expiry, each pinned key's deadline
    /// with its reminders, the kill switch's expiry, and the calendar download.
    public func deadlines(
        history: ReleaseHistory, deadlines: KeyDeadlines, leads: [TimeInterval], killSwitch: KillSwitchPublication?,
        now: Date
    ) -> String {
        var html = "<p>Generated " + time(now) + ". <a href=\"/deadlines.ics\" download>Download the calendar"
        html +=
            " (RFC 5545, one event per key deadline, reminders \(leads.map { "\(Int($0 / 86_400)) d" }.joined(separator: ", ")) before)</a>.</p>"
        html += "<section aria-labelledby=\"kill-switch-deadline\"><h2 id=\"kill-switch-deadline\">Kill switch</h2><p>"
        if let killSwitch {
            html += "Serial \(killSwitch.serial) (pinning " + escape(killSwitch.pinning) + ") "
            html += killSwitch.expiresAt <= now ? "expired at " : "expires at "
            html += time(killSwitch.expiresAt) + "."
        } else {
            html += "No kill-switch document is published."
        }
        html += "</p></section>"
        html += "<section aria-labelledby=\"pin-sets-title\"><h2 id=\"pin-sets-title\">Pin sets by release</h2>"
        html += "<table><caption>Pin-set expiry per app version (an expired set fails open)</caption><thead><tr>"
        html += ConsolePage.columnHeaders(["App version", "Installed share", "Pin set", "Hosts", "Set expires"])
        html += "</tr></thead><tbody>"
        for release in history.releases {
            for set in release.configuration.pinSets {
                html += "<tr><th scope=\"row\">" + escape(release.version) + "</th><td>"
                html += release.installedShare.map { String(format: "%.1f %%", $0 * 100) } ?? "-"
                html += "</td><td>" + escape(set.name) + "</td><td>"
                html += set.hosts.map { "<code>" + escape($0) + "</code>" }.joined(separator: " ") + "</td><td>"
                if let expires = set.expires {
                    html += time(expires) + (expires <= now ? " <strong>expired</strong>" : "")
                } else {
                    html += "never"
                }
                html += "</td></tr>"
            }
        }
        if history.releases.isEmpty { html += "<tr><td colspan=\"5\">No release in the history.</td></tr>" }
        html += "</tbody></table></section>"
        html += "<section aria-labelledby=\"keys-title\"><h2 id=\"keys-title\">Pinned keys</h2>"
        html += "<table><caption>Each pinned key's deadline: the latest notAfter of a certificate carrying it</caption>"
        html += "<thead><tr>"
        html += ConsolePage.columnHeaders(["Key", "Pin set", "Role", "Deadline", "Set by", "Reminders"])
        html += "</tr></thead><tbody>"
        for key in deadlines.keys {
            html += "<tr><th scope=\"row\"><code>" + escape(key.label ?? key.pin.base64) + "</code></th><td>"
            html += escape(key.pinSet) + "</td><td>" + escape(key.role.rawValue) + "</td><td>"
            guard let deadline = key.deadline, let deciding = key.decidingCertificate else {
                html += "no certificate carries this key yet</td><td>-</td><td>-</td></tr>"
                continue
            }
            html += time(deadline) + (deadline <= now ? " <strong>expired</strong>" : "") + "</td><td>"
            html += escape(deciding.subject) + "</td><td>"
            html += deadlines.reminders(for: key, leads: leads).map { time($0) + ($0 <= now ? " (due)" : "") }
                .joined(separator: "<br>")
            html += "</td></tr>"
        }
        if deadlines.keys.isEmpty { html += "<tr><td colspan=\"6\">No pinned key.</td></tr>" }
        html += "</tbody></table></section>"
        if !deadlines.warnings.isEmpty {
            html += "<section aria-labelledby=\"warnings-title\"><h2 id=\"warnings-title\">Warnings</h2><ul>"
            html += deadlines.warnings.map { "<li>" + escape($0) + "</li>" }.joined()
            html += "</ul></section>"
        }
        return document(title: "Pin-set deadlines", body: html)
    }

    private func time(_ date: Date) -> String {
        let text = RFC3339.format(date)
        return "<time datetime=\"\(text)\">\(text)</time>"
    }

    static let formStyle = """
        label{font-weight:600}input,textarea,button{font:inherit}.error{color:#8b0000;font-weight:600}
        ul.problems li{margin:0.2rem 0}
        """
}

public import Foundation

extension PinConfiguration {
    /// Every problem with this configuration at once, in document order.
    ///
    /// - Parameters:
    ///   - chain: a chain the configuration must work with, leaf first. With it, the guard also
    ///     checks that some pin matches (else the configuration would brick today), that some pin
    ///     is *not* in the chain (a real backup), and that no pin is the leaf's key.
    ///   - now: the reference time for expiry rules.
    ///   - publicSuffixes: the list used to refuse registry suffixes; nil reduces that check to
    ///     single-label names and adds a warning.
    /// - Returns: errors (the configuration must not be used) and warnings (it may be used, but
    ///   fails ``meetsProductionPinPolicy(chain:now:publicSuffixes:)``).
    ///
    /// This is the ship-time gate: it judges expiry by `now` and host names by this machine's
    /// public suffix list. Runtime loading (``PinPolicy/init(_:)``) uses ``loadingProblems()``.
    public func validate(
        chain: [CertificateFacts]? = nil,
        now: Date = Date(),
        publicSuffixes: PublicSuffixList? = .system
    ) -> [ConfigurationProblem] {
        problems(chain: chain, now: now, publicSuffixes: publicSuffixes, shipTime: true)
    }

    /// The errors that stop runtime loading (``PinPolicy/init(_:)``): those that depend on the
    /// document alone, so the same document loads on every machine at every time.
    ///
    /// Left to the ship-time gate (``validate(chain:now:publicSuffixes:)``): `expired-pin-set`
    /// and `expires-soon` (the clock; at runtime an expired set is not enforced, decided per
    /// handshake) and the public suffix list (a file of the machine, which may be missing or newer
    /// than the build machine's; single-label hosts are still refused).
    public func loadingProblems() -> [ConfigurationProblem] {
        problems(chain: nil, now: nil, publicSuffixes: nil, shipTime: false).filter { $0.severity == .error }
    }

    private func problems(
        chain: [CertificateFacts]?,
        now: Date?,
        publicSuffixes: PublicSuffixList?,
        shipTime: Bool
    ) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        if shipTime && publicSuffixes == nil {
            problems.append(
                ConfigurationProblem(
                    .publicSuffixListUnavailable,
                    .warning,
                    path: "",
                    "the public suffix list (\(PublicSuffixList.debianPath)) is not installed; only single-label hosts were refused as public suffixes"
                )
            )
        }
        var setsByHost: [String: Int] = [:]
        var namesSeen: [String: Int] = [:]
        let listed = listedHosts()
        for (index, set) in pinSets.enumerated() {
            let paths = PinSet.Paths(base: "pinSets[\(index)]", flat: isFlatForm)
            problems += set.problems(paths: paths, now: now, publicSuffixes: publicSuffixes, listed: listed)
            if !isFlatForm {
                if set.name.isEmpty {
                    problems.append(
                        ConfigurationProblem(.invalidValue, path: paths.base + ".name", "a pin set needs a name"))
                } else if let first = namesSeen[set.name] {
                    problems.append(
                        ConfigurationProblem(
                            .duplicateName,
                            path: paths.base + ".name",
                            "the name \"\(set.name)\" is already used by pinSets[\(first)]"
                        )
                    )
                } else {
                    namesSeen[set.name] = index
                }
            }
            for (hostIndex, host) in set.hosts.enumerated() {
                let normalized = HostName.normalize(host)
                guard !normalized.isEmpty else { continue }
                if let other = setsByHost[normalized], other != index {
                    problems.append(
                        ConfigurationProblem(
                            .duplicateHost,
                            path: paths.host(hostIndex),
                            "\"\(host)\" is already pinned by pinSets[\(other)] (\(pinSets[other].name)); a host belongs to one pin set"
                        )
                    )
                } else {
                    setsByHost[normalized] = index
                }
            }
        }
        problems += urlProblems()
        problems += debugOverrideProblems(production: false)
        if let chain { problems += chainProblems(chain) }
        return problems
    }

    /// True when ``validate(chain:now:publicSuffixes:)`` finds no error (warnings allowed).
    public func pinConfigurationIsValid(
        chain: [CertificateFacts]? = nil,
        now: Date = Date(),
        publicSuffixes: PublicSuffixList? = .system
    ) -> Bool {
        !validate(chain: chain, now: now, publicSuffixes: publicSuffixes).contains { $0.severity == .error }
    }

    /// The problems a release build refuses: every error and warning of
    /// ``validate(chain:now:publicSuffixes:)``, plus a configuration that pins nothing.
    public func productionProblems(
        chain: [CertificateFacts]? = nil,
        now: Date = Date(),
        publicSuffixes: PublicSuffixList? = .system
    ) -> [ConfigurationProblem] {
        var problems = validate(chain: chain, now: now, publicSuffixes: publicSuffixes)
        if let keys = killSwitch?.publicKeys, Set(keys.map(\.spki)).count == 1 {
            problems.append(
                ConfigurationProblem(
                    .singleKillSwitchKey,
                    path: "killSwitch.publicKeys",
                    "one kill-switch key (\(keys.count) entr\(keys.count == 1 ? "y" : "ies") with the same key): if it is lost, there is no kill switch; configure at least two different keys, held apart (docs/ROTATION.md)"
                )
            )
        }
        for (index, set) in pinSets.enumerated() where set.expires == nil {
            let paths = PinSet.Paths(base: "pinSets[\(index)]", flat: isFlatForm)
            problems.append(
                ConfigurationProblem(
                    .noExpires,
                    .note,
                    path: paths.flat ? paths.pins : paths.base,
                    "no \"expires\": the set is enforced until a release removes it (pinctl init proposes one at most 18 months out)"
                )
            )
        }
        problems = applyingAcknowledgements(problems)
        problems.removeAll { $0.code == .debugOverridesPresent }
        problems += debugOverrideProblems(production: true)
        if pinSets.isEmpty {
            // The operator-neutral build: it declares no pinning at all and validates by system
            // trust. That is a legitimate release, so the gate passes it with a note; only a build
            // that declares pinning and brings it incomplete or unsafe fails.
            problems.append(
                ConfigurationProblem(
                    .noPinSets,
                    .note,
                    path: isFlatForm ? "HLPinnedHosts" : "pinSets",
                    "this build declares no pinning: every connection relies on system trust alone (the operator-neutral build)"
                )
            )
        }
        return problems
    }

    /// Turns each warning a pin set acknowledged into a note that carries the reason; reports an
    /// acknowledgement without a reason or of an error.
    func applyingAcknowledgements(_ problems: [ConfigurationProblem]) -> [ConfigurationProblem] {
        var result = problems
        for (index, set) in pinSets.enumerated() {
            let base = "pinSets[\(index)]"
            for (offset, acknowledgement) in set.acknowledged.enumerated() {
                let at = "\(base).acknowledged[\(offset)]"
                let inSet = result.indices.filter {
                    (result[$0].path == base || result[$0].path.hasPrefix(base + "."))
                        && result[$0].code.rawValue == acknowledgement.code
                }
                if !Self.isReadableReason(acknowledgement.reason) {
                    result.append(
                        ConfigurationProblem(
                            .invalidAcknowledgement, path: at + ".reason",
                            "give the reason it is acceptable in words (letters or digits, on one line, without control or invisible characters)"
                        ))
                    continue
                }
                if inSet.contains(where: { result[$0].severity == .error }) {
                    result.append(
                        ConfigurationProblem(
                            .invalidAcknowledgement,
                            path: at + ".code",
                            "\(acknowledgement.code) is an error here; errors cannot be acknowledged, only warnings"))
                }
                for problem in inSet where result[problem].severity == .warning {
                    result[problem] = ConfigurationProblem(
                        .acknowledgedWarning,
                        .note,
                        path: result[problem].path,
                        "\(acknowledgement.code) acknowledged (\(acknowledgement.reason)): \(result[problem].message)"
                    )
                }
            }
        }
        return result
    }

    /// A reason a reviewer can read: at least one letter or digit, and no control, format
    /// (zero-width, soft hyphen, BOM, bidirectional override) or line-separator character, which
    /// could hide the reason or rewrite what is shown next to it. Trimming spaces alone let a
    /// line break or a word joiner pass as the reason that waves a warning through the gate.
    static func isReadableReason(_ text: String) -> Bool {
        var hasWord = false
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
                return false
            default:
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { hasWord = true }
            }
        }
        return hasWord
    }

    /// The stricter gate a release build uses: no errors and no warnings (notes pass).
    public func meetsProductionPinPolicy(
        chain: [CertificateFacts]? = nil,
        now: Date = Date(),
        publicSuffixes: PublicSuffixList? = .system
    ) -> Bool {
        !productionProblems(chain: chain, now: now, publicSuffixes: publicSuffixes).contains { $0.severity != .note }
    }

    private func urlProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        func check(_ url: String, path: String) -> String? {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                let host = components.host, !host.isEmpty
            else {
                problems.append(
                    ConfigurationProblem(.invalidURL, path: path, "expected an absolute https URL, saw \"\(url)\"")
                )
                return nil
            }
            if scheme != "https" {
                problems.append(
                    ConfigurationProblem(.insecureURL, path: path, "expected an https URL, saw scheme \"\(scheme)\"")
                )
            }
            return HostName.normalize(host)
        }
        if let killSwitch {
            if let host = check(killSwitch.url, path: "killSwitch.url"), let set = pinSetIndex(coveringHost: host) {
                problems.append(
                    ConfigurationProblem(
                        .killSwitchHostPinned,
                        path: "killSwitch.url",
                        "the kill-switch host \(host) is pinned by pinSets[\(set)] (\(pinSets[set].name)); it is fetched without pinning so that it still works when the pins no longer match, so its host must lie outside every pin set"
                    )
                )
            }
            var keyIds: Set<String> = []
            for (index, key) in killSwitch.publicKeys.enumerated() {
                let path = "killSwitch.publicKeys[\(index)]"
                if key.keyId.isEmpty || !keyIds.insert(key.keyId).inserted {
                    problems.append(
                        ConfigurationProblem(
                            .invalidValue, path: path + ".keyId", "key ids must be non-empty and unique")
                    )
                }
                if case .failure(let failure) = Base64.decode(key.spki) {
                    problems.append(
                        ConfigurationProblem(
                            .invalidValue,
                            path: path + ".spki",
                            "expected base64 of a DER SubjectPublicKeyInfo: \(failure)"
                        )
                    )
                }
            }
            if killSwitch.publicKeys.isEmpty {
                problems.append(
                    ConfigurationProblem(
                        .unsignedKillSwitch,
                        path: "killSwitch.publicKeys",
                        "no public keys: an unsigned kill switch, fetched over the unpinned path, would let any proxy or rogue CA switch pinning off, so PinKit honours no document at all; add at least two keys (pinctl killswitch keygen) held by different people"
                    )
                )
            }
        }
        if let reporting { _ = check(reporting.url, path: "reporting.url") }
        return problems
    }

    /// For the exclusion rule: every name that is a listed host or lies above one (on label
    /// boundaries), mapped to the first such listed host in document order. One lookup per
    /// exclusion, so the rule stays linear in the size of the document.
    private func listedHosts() -> [String: PinSet.ListedHost] {
        var covering: [String: PinSet.ListedHost] = [:]
        for (index, set) in pinSets.enumerated() {
            let paths = PinSet.Paths(base: "pinSets[\(index)]", flat: isFlatForm)
            for (hostIndex, host) in set.hosts.enumerated() {
                let normalized = HostName.normalize(host)
                guard !normalized.isEmpty else { continue }
                let listed = PinSet.ListedHost(host: normalized, path: paths.host(hostIndex))
                var name = Substring(normalized)
                while true {
                    if covering[String(name)] == nil { covering[String(name)] = listed }
                    guard let dot = name.firstIndex(of: ".") else { break }
                    name = name[name.index(after: dot)...]
                }
            }
        }
        return covering
    }

    /// The index of the pin set whose patterns cover `host` (normalised), ignoring exclusions
    /// (a configuration check errs toward "pinned").
    func pinSetIndex(coveringHost host: String) -> Int? {
        var best: (index: Int, length: Int)?
        for (index, set) in pinSets.enumerated() {
            for pattern in set.hosts.map(HostName.normalize) where !pattern.isEmpty {
                let covers = set.includeSubdomains ? HostName.host(host, isWithinOrEqualTo: pattern) : host == pattern
                if covers, pattern.utf8.count > best?.length ?? -1 { best = (index, pattern.utf8.count) }
            }
        }
        return best?.index
    }

    private func chainProblems(_ chain: [CertificateFacts]) -> [ConfigurationProblem] {
        guard let leaf = chain.first else { return [] }
        // The chain belongs to the pin sets covering its leaf's names; with none, to every set.
        let names = leaf.dnsNames.map { name in
            HostName.normalize(name.hasPrefix("*.") ? "wildcard-label" + name.dropFirst() : Substring(name))
        }
        var indices = Set(names.compactMap(pinSetIndex(coveringHost:)))
        // A wildcard leaf (*.example.com) also serves the sets that list a name it matches
        // (api.example.com): the narrow hosts `pinctl init` recommends for a wildcard.
        for wildcard in leaf.dnsNames where wildcard.hasPrefix("*.") {
            let base = HostName.normalize(String(wildcard.dropFirst(2)))
            for (index, set) in pinSets.enumerated()
            where set.hosts.contains(where: { host in
                let name = HostName.normalize(host)
                return name.hasSuffix("." + base) && !name.dropLast(base.count + 1).contains(".")
            }) {
                indices.insert(index)
            }
        }
        var problems: [ConfigurationProblem] = []
        if indices.isEmpty && !pinSets.isEmpty {
            indices = Set(pinSets.indices)
            if !names.isEmpty {
                problems.append(
                    ConfigurationProblem(
                        .chainOutsidePinSets,
                        .warning,
                        path: "",
                        "the chain's leaf is for \(leaf.dnsNames.joined(separator: ", ")), which no pin set covers; it was checked against every pin set"
                    )
                )
            }
        }
        let chainPins = chain.map(\.spki)
        for index in indices.sorted() {
            let set = pinSets[index]
            let paths = PinSet.Paths(base: "pinSets[\(index)]", flat: isFlatForm)
            let parsed = set.pins.enumerated().compactMap { offset, pin in
                (try? SPKIPin(parsing: pin.sha256)).map { (offset, pin, $0) }
            }
            guard !parsed.isEmpty else { continue }
            let matching = parsed.filter { chainPins.contains($0.2) }
            if matching.isEmpty {
                problems.append(
                    ConfigurationProblem(
                        .noPinMatchesChain,
                        path: paths.pins,
                        "no pin matches the chain, so this configuration would brick today; the chain's keys are \(Self.describe(chain)); the set pins \(parsed.map { $0.2.base64 }.joined(separator: ", "))"
                    )
                )
            }
            if matching.count == parsed.count {
                problems.append(Self.noBackupProblem(matching: matching.map(\.2), chain: chain, path: paths.pins))
            }
            for (offset, pin, spki) in parsed where spki == leaf.spki {
                if pin.operatorHeld {
                    problems.append(
                        ConfigurationProblem(
                            .operatorHeldLeaf,
                            .note,
                            path: paths.pin(offset),
                            "the leaf's key is the operator-held key \(pin.label.map { "\"\($0)\"" } ?? spki.base64): it changes only when you decide; keep another operator-held spare (or a CA-level backup) pinned"
                        )
                    )
                } else {
                    problems.append(
                        ConfigurationProblem(
                            .leafPinned,
                            path: paths.pin(offset),
                            "\(pin.label.map { "\"\($0)\" " } ?? "")pins the leaf (\(leaf.subject)), whose key changes at every renewal; pin an intermediate or root key, or mark an operator-held key with \"operatorHeld\": true"
                        )
                    )
                }
            }
            problems += Self.rotatingIntermediateProblems(matching: matching.map(\.2), chain: chain, path: paths.pins)
        }
        return problems
    }

    /// Every pin is in today's chain. With a CA-level key among them the set survives leaf
    /// renewals (and, with the root pinned, an intermediate change under that root) but not a CA
    /// change: a warning the operator may acknowledge. With only leaf keys it is an error.
    static func noBackupProblem(matching: [SPKIPin], chain: [CertificateFacts], path: String) -> ConfigurationProblem {
        let caLevel = chain.dropFirst().filter { matching.contains($0.spki) }
        guard !caLevel.isEmpty else {
            return ConfigurationProblem(
                .noBackupPin,
                path: path,
                "every pin is in today's chain, so there is no backup key to move to without a release; add the pin of a key held in reserve (pinctl keygen, \"operatorHeld\": true)"
            )
        }
        let rootPinned = chain.count > 1 && caLevel.contains { $0 == chain[chain.count - 1] && $0.subject == $0.issuer }
        let survives =
            rootPinned
            ? "leaf renewals and an intermediate change under the same root"
            : "leaf renewals under the same intermediate"
        return ConfigurationProblem(
            .noBackupPin,
            .warning,
            path: path,
            "CA-level pins only (\(caLevel.map(\.subject).joined(separator: "; "))): this survives \(survives), but not a CA change; add an off-chain backup (an operator-held spare from pinctl keygen, or a second CA's key with pinctl init --backup-ca) or acknowledge this warning with a reason"
        )
    }

    /// The pins that match are only on intermediates their CA rotates among (Let's Encrypt,
    /// Google Trust Services): the next leaf may come from a sibling intermediate.
    static func rotatingIntermediateProblems(matching: [SPKIPin], chain: [CertificateFacts], path: String)
        -> [ConfigurationProblem]
    {
        let matched = chain.dropFirst().filter { matching.contains($0.spki) }
        guard !matched.isEmpty else { return [] }
        let families = matched.map { RotatingIntermediates.family(ofSubject: $0.subject) }
        guard families.allSatisfy({ $0 != nil }), let family = families.first ?? nil else { return [] }
        return [
            ConfigurationProblem(
                .rotatingIntermediate,
                .warning,
                path: path,
                "\(family.organization) issues from several intermediates (\(family.current.joined(separator: ", ")) as of \(family.asOf)) and may switch at any renewal; pin the root(s) \(family.roots.joined(separator: ", ")) or every current intermediate (source: \(family.source))"
            )
        ]
    }

    /// The chain's subjects and keys, each key as `sha256/<base64>`: the label keeps it readable
    /// after log redaction (an unlabelled 44-character base64 value is redacted as a token).
    static func describe(_ chain: [CertificateFacts]) -> String {
        chain.enumerated().map { "[\($0.offset + 1)] \($0.element.subject) sha256/\($0.element.spki.base64)" }
            .joined(separator: "; ")
    }
}

extension PinConfiguration.PinSet {
    /// A host some pin set lists, and where.
    struct ListedHost {
        var host: String
        var path: String
    }

    /// - Parameters:
    ///   - now: the clock for the expiry rules; nil (runtime loading) skips them.
    ///   - listed: every listed host and every name above one, mapped to that listed host.
    func problems(
        paths: Paths,
        now: Date?,
        publicSuffixes: PublicSuffixList?,
        listed: [String: ListedHost]
    ) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        if hosts.isEmpty && !pins.isEmpty {
            problems.append(
                ConfigurationProblem(
                    .hashesWithoutHosts,
                    path: paths.hosts,
                    "\(pins.count) pin\(pins.count == 1 ? "" : "s") but no host; the pins would apply nowhere"
                )
            )
        }
        if !hosts.isEmpty && pins.isEmpty {
            problems.append(
                ConfigurationProblem(
                    .hostsWithoutHashes,
                    path: paths.pins,
                    "hosts \(hosts.joined(separator: ", ")) have no pins; pinning them would reject every chain"
                )
            )
        }
        var seenHosts: Set<String> = []
        for (index, host) in hosts.enumerated() {
            if let problem = Self.patternProblem(host, path: paths.host(index), publicSuffixes: publicSuffixes) {
                problems.append(problem)
            } else if !seenHosts.insert(HostName.normalize(host)).inserted {
                problems.append(
                    ConfigurationProblem(.duplicateHost, path: paths.host(index), "\"\(host)\" is listed twice")
                )
            }
        }
        let apexes = hosts.map(HostName.normalize)
        for (index, excluded) in excludeSubdomains.enumerated() {
            if let problem = Self.patternProblem(excluded, path: paths.exclude(index), publicSuffixes: nil) {
                problems.append(problem)
                continue
            }
            let name = HostName.normalize(excluded)
            // Listed and excluded: which wins depended on the order of the rules, and a listed host
            // could end up unpinned without a word. An exclusion must lie strictly below every
            // listed host it touches.
            if let covered = listed[name] {
                problems.append(
                    ConfigurationProblem(
                        .excludeCoversListedHost,
                        path: paths.exclude(index),
                        "\"\(excluded)\" would unpin \(covered.host), which \(covered.path) lists to be pinned; expected an exclusion strictly below every listed host (remove the exclusion, or the host)"
                    )
                )
                continue
            }
            if !apexes.contains(where: { HostName.host(name, isWithinOrEqualTo: $0) && name != $0 }) {
                problems.append(
                    ConfigurationProblem(
                        .excludeOutsideHosts,
                        path: paths.exclude(index),
                        "\"\(excluded)\" is not a subdomain of any host of this set (\(hosts.joined(separator: ", ")))"
                    )
                )
            }
        }
        var wellFormed = 0
        var seenPins: [SPKIPin: Int] = [:]
        for (index, pin) in pins.enumerated() {
            let parsed: SPKIPin
            do {
                parsed = try SPKIPin(parsing: pin.sha256)
            } catch {
                problems.append(ConfigurationProblem(.invalidPin, path: paths.pin(index), error.reason))
                continue
            }
            if parsed.isPlaceholder {
                problems.append(
                    ConfigurationProblem(
                        .placeholderPin,
                        path: paths.pin(index),
                        "\(parsed.base64) has every byte equal: a placeholder, not the digest of a real key"
                    )
                )
                continue
            }
            if let first = seenPins[parsed] {
                problems.append(
                    ConfigurationProblem(
                        .duplicatePin,
                        path: paths.pin(index),
                        "\(parsed.base64) is already listed at \(paths.pin(first))"
                    )
                )
                continue
            }
            seenPins[parsed] = index
            wellFormed += 1
        }
        if !hosts.isEmpty && !pins.isEmpty && wellFormed < PinConfiguration.minimumProductionPinCount {
            problems.append(
                ConfigurationProblem(
                    .tooFewPins,
                    path: paths.pins,
                    "expected at least \(PinConfiguration.minimumProductionPinCount) distinct well-formed pins (an active key and a backup), saw \(wellFormed)"
                )
            )
        }
        if !paths.flat && !pins.isEmpty && !pins.contains(where: { $0.role == .backup }) {
            problems.append(
                ConfigurationProblem(
                    .noDeclaredBackup,
                    .warning,
                    path: paths.pins,
                    "no pin has \"role\": \"backup\"; declare the key held in reserve so tools can check it stays out of the served chain"
                )
            )
        }
        if let expires, let now {
            if expires <= now {
                problems.append(
                    ConfigurationProblem(
                        .expiredPinSet,
                        path: paths.expires,
                        "expired at \(RFC3339.format(expires)) (now \(RFC3339.format(now))); an expired set is not enforced"
                    )
                )
            } else if expires.timeIntervalSince(now) < 30 * 86_400 {
                problems.append(
                    ConfigurationProblem(
                        .expiresSoon,
                        .warning,
                        path: paths.expires,
                        "expires at \(RFC3339.format(expires)), within 30 days; ship a configuration with a later expiry"
                    )
                )
            }
        }
        if mode == .reportOnly {
            problems.append(
                ConfigurationProblem(
                    .reportOnlyMode,
                    .warning,
                    path: paths.mode,
                    "report-only: mismatches are reported but connections are not blocked"
                )
            )
        }
        return problems
    }

    static func patternProblem(
        _ pattern: String,
        path: String,
        publicSuffixes: PublicSuffixList?
    ) -> ConfigurationProblem? {
        if let syntax = HostName.syntaxProblem(ofPattern: pattern) {
            return ConfigurationProblem(syntax.code, path: path, syntax.message(for: pattern))
        }
        let normalized = HostName.normalize(pattern)
        let isSuffix =
            publicSuffixes?.isPublicSuffix(normalized) ?? !normalized.contains(".")
        if isSuffix {
            return ConfigurationProblem(
                .publicSuffixHost,
                path: path,
                "\"\(pattern)\" is a public suffix, under which unrelated parties register names; pin your registered domain"
            )
        }
        return nil
    }
}

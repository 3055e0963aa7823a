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
        if pinSets.isEmpty {
            problems.append(
                ConfigurationProblem(
                    .noPinSets,
                    .warning,
                    path: isFlatForm ? "HLPinnedHosts" : "pinSets",
                    "a production configuration pins no host; every connection would rely on system trust alone"
                )
            )
        }
        return problems
    }

    /// The stricter gate a release build uses: no errors and no warnings.
    public func meetsProductionPinPolicy(
        chain: [CertificateFacts]? = nil,
        now: Date = Date(),
        publicSuffixes: PublicSuffixList? = .system
    ) -> Bool {
        productionProblems(chain: chain, now: now, publicSuffixes: publicSuffixes).isEmpty
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
                        .warning,
                        path: "killSwitch.publicKeys",
                        "no public keys: unsigned kill-switch documents will be accepted, so anyone on the unpinned path can switch pinning off"
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
                problems.append(
                    ConfigurationProblem(
                        .noBackupPin,
                        path: paths.pins,
                        "every pin is in today's chain, so there is no backup key to move to without a release; add the pin of a key held in reserve"
                    )
                )
            }
            for (offset, pin, spki) in parsed where spki == leaf.spki {
                problems.append(
                    ConfigurationProblem(
                        .leafPinned,
                        path: paths.pin(offset),
                        "\(pin.label.map { "\"\($0)\" " } ?? "")pins the leaf (\(leaf.subject)), whose key changes at every renewal; pin an intermediate or root key"
                    )
                )
            }
        }
        return problems
    }

    static func describe(_ chain: [CertificateFacts]) -> String {
        chain.enumerated().map { "[\($0.offset + 1)] \($0.element.subject) \($0.element.spki.base64)" }
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

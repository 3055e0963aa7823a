public import Foundation

/// The app releases that may still be installed, each with the pin configuration it shipped.
///
/// ```json
/// {"releases": [
///   {"version": "1.4.2", "configuration": "configs/1.4.2.json", "installedShare": 0.61},
///   {"version": "1.3.0", "configuration": { …inline… }, "supportedUntil": "2027-03-01T00:00:00Z"}]}
/// ```
/// A configuration path is relative to the history file.
public struct ReleaseHistory: Sendable {
    public struct Release: Sendable {
        public var version: String
        public var configuration: PinConfiguration
        /// Fraction of the installed base on this release, 0…1.
        public var installedShare: Double?
        /// The release is supported (so installed) until this date.
        public var supportedUntil: Date?

        public init(
            version: String, configuration: PinConfiguration, installedShare: Double? = nil, supportedUntil: Date? = nil
        ) {
            self.version = version
            self.configuration = configuration
            self.installedShare = installedShare
            self.supportedUntil = supportedUntil
        }

        /// Still installed at `now`: a share of at least `minimumShare` (when given), or
        /// supported until after `now`. A release with neither counts as installed.
        public func isInstalled(now: Date, minimumShare: Double) -> Bool {
            if installedShare == nil && supportedUntil == nil { return true }
            if let share = installedShare, share > 0, share >= minimumShare { return true }
            if let until = supportedUntil, until > now { return true }
            return false
        }
    }

    public var releases: [Release]

    public init(releases: [Release]) { self.releases = releases }

    /// The history with installed shares measured by the collector (version → share), every
    /// release whose pin set is live at `now` kept installed whatever its share, largest share
    /// first. Shares order and annotate; they never make a live release disappear: dormant
    /// installs are the long tail a rotation must not brick. A release whose sets have all
    /// expired fails open and is safe by construction.
    public func applyingMeasuredShares(_ shares: [String: Double], now: Date) -> ReleaseHistory {
        var releases = self.releases
        for index in releases.indices {
            releases[index].installedShare = shares[releases[index].version] ?? 0
            let live = releases[index].configuration.pinSets.compactMap { $0.expires ?? .distantFuture }.max()
            if let live, live > now {
                releases[index].supportedUntil = max(releases[index].supportedUntil ?? live, live)
            }
        }
        releases.sort { ($0.installedShare ?? 0) > ($1.installedShare ?? 0) }
        return ReleaseHistory(releases: releases)
    }

    /// Reads a history file.
    /// - Throws: ``PinKitError`` naming every problem (with paths such as `releases[2].version`).
    public static func load(contentsOf path: String) throws(PinKitError) -> ReleaseHistory {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PinKitError(.io, "cannot read the release history \(path)")
        }
        let base = (path as NSString).deletingLastPathComponent
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw PinKitError(error.code, "\(path): \(error.reason)")
        }
        var reader = DocumentReader()
        var releases: [Release] = []
        if let fields = reader.object(value, at: "", allowed: ["releases"], required: ["releases"]),
            let items = reader.array(fields["releases"], at: "releases")
        {
            for (index, item) in items.enumerated() {
                let at = "releases[\(index)]"
                guard
                    let release = reader.object(
                        item,
                        at: at,
                        allowed: ["version", "configuration", "installedShare", "supportedUntil"],
                        required: ["version", "configuration"]
                    ),
                    let version = reader.string(release["version"], at: at + ".version")
                else { continue }
                var share: Double?
                if let shareValue = release["installedShare"] {
                    if case .number(let text) = shareValue, let number = Double(text), (0...1).contains(number) {
                        share = number
                    } else {
                        reader.report(.invalidValue, at: at + ".installedShare", "expected a fraction between 0 and 1")
                    }
                }
                let until = reader.date(release["supportedUntil"], at: at + ".supportedUntil")
                var configuration: PinConfiguration?
                switch release["configuration"] {
                case .string(let relative)?:
                    let full = relative.hasPrefix("/") ? relative : (base as NSString).appendingPathComponent(relative)
                    do {
                        configuration = try PinConfiguration.load(contentsOf: full)
                    } catch {
                        let code: ConfigurationProblem.Code = error.code == .io ? .missingFile : .invalidValue
                        reader.report(code, at: at + ".configuration", error.description)
                    }
                case .object?:
                    do {
                        configuration = try PinConfiguration.parse(release["configuration"]!)
                    } catch {
                        reader.report(.invalidValue, at: at + ".configuration", error.description)
                    }
                default:
                    reader.report(.wrongType, at: at + ".configuration", "expected a path or an inline configuration")
                }
                if let configuration {
                    releases.append(
                        Release(
                            version: version, configuration: configuration, installedShare: share, supportedUntil: until
                        ))
                }
            }
        }
        guard reader.problems.isEmpty else {
            throw PinKitError(.invalidDocument, "\(path) is not a usable release history", problems: reader.problems)
        }
        return ReleaseHistory(releases: releases)
    }
}

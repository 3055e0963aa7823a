public import Foundation
import PinKit

/// The server-side anchor of one installation's audit chain, and the rules an upload must
/// follow to continue it: a value type, tested without a database.
///
/// The server keeps the last accepted `(seq, hash)`. An entry continues the chain when its
/// `seq` is the next one and its `prev` is the anchored hash (a fresh installation starts at
/// seq 1 from 64 zeros, or at a truncation marker). Entries the server already holds are
/// compared with the stored hash: a different one is a rewrite. Entries that do not continue
/// are still stored, flagged, and the anchor follows them, so one break is reported once.
public struct AuditChain: Sendable {
    public private(set) var seq: Int64
    public private(set) var hash: String
    public private(set) var anomalies: [AuditAnomaly] = []
    private let installation: String
    private let appVersion: String
    private let now: Date
    private var fresh: Bool

    public init(seq: Int64, hash: String, installation: String, appVersion: String, now: Date) {
        self.seq = seq
        self.hash = hash
        self.installation = installation
        self.appVersion = appVersion
        self.now = now
        self.fresh = seq == 0 && hash.isEmpty
        if fresh { self.hash = AuditLog.genesis }
    }

    private mutating func flag(_ kind: AuditAnomaly.Kind, seq: Int64, expected: String, seen: String) {
        anomalies.append(
            AuditAnomaly(
                installationID: installation, seq: seq, kind: kind, expectedHash: expected, seenHash: seen,
                appVersion: appVersion, detectedAt: now))
    }

    /// Applies one entry. - Returns: nil when the entry is not stored (a marker, or one already
    /// anchored), else the `prev` to store and whether the entry breaks the chain.
    public mutating func accept(_ entry: AuditUploadEntry, storedHash: String?) -> (prev: String, broken: Bool)? {
        switch entry.kind {
        case .truncated(let anchor):
            if fresh {
                seq = entry.seq
                hash = anchor
            } else if entry.seq == seq {
                if anchor != hash { flag(.rewritten, seq: entry.seq, expected: hash, seen: anchor) }
            } else if entry.seq < seq {
                if let storedHash, storedHash != anchor {
                    flag(.rewritten, seq: entry.seq, expected: storedHash, seen: anchor)
                }
            } else {
                flag(.gap, seq: entry.seq, expected: hash, seen: anchor)
                seq = entry.seq
                hash = anchor
            }
            fresh = false
            return nil
        case .entry(let prev):
            fresh = false
            if entry.seq <= seq {
                if let storedHash, storedHash != entry.hash {
                    flag(.rewritten, seq: entry.seq, expected: storedHash, seen: entry.hash)
                }
                return nil
            }
            var broken = false
            if entry.seq != seq + 1 {
                flag(.gap, seq: entry.seq, expected: hash, seen: prev)
                broken = true
            } else if prev != hash {
                flag(.chainBroken, seq: entry.seq, expected: hash, seen: prev)
                broken = true
            }
            seq = entry.seq
            hash = entry.hash
            return (prev, broken)
        }
    }
}

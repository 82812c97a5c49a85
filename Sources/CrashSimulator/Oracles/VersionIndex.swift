import FileSystemKit
import SessionFormats
import SessionModel

/// Which content each session file had at each version of the recorded run, where a version is a
/// moment the store was at rest (after each workload event, and at each acknowledged save).
///
/// Oracles ask it: was this content ever produced by a save (atomicity)? What is the newest
/// version that had it (durability: it must be at least the acknowledged one)?
public struct VersionIndex: Sendable {
    /// A run of versions during which a path held one content (hash 0: absent).
    struct Span: Sendable {
        var hash: UInt64
        var first: Int
        var last: Int
    }

    /// What a path is.
    enum Role: Sendable {
        case metadata
        case tabData
    }

    private(set) var spans: [UInt64: [Span]] = [:]
    /// For each session identity, the newest version in which each list content was the live
    /// list or a set-aside one.
    private(set) var contentNewest: [UInt64: [UInt64: Int]] = [:]
    /// For each session identity, the newest version in which it had no list anywhere.
    private(set) var goneNewest: [UInt64: Int] = [:]
    /// The live metadata path of each session identity.
    private(set) var metadataKeys: [UInt64: UInt64] = [:]
    private(set) var sessionNames: [UInt64: String] = [:]
    private(set) var roles: [UInt64: Role] = [:]
    private(set) var displayPaths: [UInt64: String] = [:]
    /// Number of versions recorded.
    public private(set) var count = 0

    /// Hash standing for "the file is absent".
    static let absent: UInt64 = 0

    public init() {}

    /// Every session identity that ever had content.
    var sessionIdentities: [UInt64] { contentNewest.keys.sorted() }

    /// Records the next version from a scan of the process's tree; returns its number.
    @discardableResult
    mutating func record(_ scan: ProfileScan, names: NameTable, sessionPath: (ProfileScan.SessionEntry) -> String) -> Int {
        let version = count
        count += 1
        var present: [UInt64: UInt64] = [:]
        for session in scan.sessions {
            let directory = sessionPath(session)
            if let metadata = session.metadata {
                present[session.metadataKey] = metadata.hash
                note(session.metadataKey, .metadata, joinPath(directory, ProfileLayout.metadataFile))
            }
            for tab in session.tabs {
                guard let data = tab.data else { continue }
                present[tab.dataKey] = data.hash
                note(tab.dataKey, .tabData, joinPath(directory, names.name(tab.name), ProfileLayout.tabDataFile))
            }
        }
        for key in roles.keys { VersionIndex.extend(&spans, key, present[key] ?? VersionIndex.absent, version) }
        var contents: [UInt64: [UInt64]] = [:]
        for session in scan.sessions {
            let identity = ProfileScan.sessionIdentity(incognito: session.incognito, name: session.name, names)
            if sessionNames[identity] == nil { sessionNames[identity] = sessionPath(session) }
            metadataKeys[identity] = session.metadataKey
            if let metadata = session.metadata { contents[identity, default: []].append(metadata.hash) }
        }
        for backup in scan.backups {
            let identity = ProfileScan.sessionIdentity(incognito: backup.incognito, name: backup.session, names)
            if sessionNames[identity] == nil {
                sessionNames[identity] = ProfileLayout.sessionDirectory(names.name(backup.session), incognito: backup.incognito)
            }
            if let metadata = backup.metadata { contents[identity, default: []].append(metadata.hash) }
        }
        for (identity, hashes) in contents {
            if contentNewest[identity] == nil && version > 0 { goneNewest[identity] = version - 1 }
            for hash in hashes { contentNewest[identity, default: [:]][hash] = version }
        }
        for identity in contentNewest.keys where contents[identity] == nil { goneNewest[identity] = version }
        return version
    }

    /// Adds `version` with `hash` to a key's spans.
    private static func extend(_ spans: inout [UInt64: [Span]], _ key: UInt64, _ hash: UInt64, _ version: Int) {
        if var list = spans[key], let last = list.last, last.hash == hash, last.last == version - 1 {
            list[list.count - 1].last = version
            spans[key] = list
        } else {
            if spans[key] == nil && version > 0 {
                spans[key] = [Span(hash: VersionIndex.absent, first: 0, last: version - 1)]
            }
            spans[key, default: []].append(Span(hash: hash, first: version, last: version))
        }
    }

    /// The newest version a session's state can stand for: its live list's newest version when it
    /// has one; else (set aside or gone) the newest version in which it was gone or held one of the
    /// set-aside lists `aside`, each no newer than the newest version its tabs' data stands for
    /// (`data`). Nil when none.
    func newestSessionVersion(_ identity: UInt64, live: UInt64?, aside: [(list: UInt64, data: Int)]) -> Int? {
        guard contentNewest[identity] != nil else { return live == nil && aside.isEmpty ? count - 1 : nil }
        if let live { return metadataKeys[identity].flatMap { newestVersion($0, live) } }
        var best = goneNewest[identity]
        for entry in aside {
            if let version = contentNewest[identity]?[entry.list].map({ min($0, entry.data) }) { best = max(best ?? version, version) }
        }
        return best
    }

    /// The session directory of an identity, for reports.
    func sessionName(_ identity: UInt64) -> String { sessionNames[identity] ?? "a session" }

    private mutating func note(_ key: UInt64, _ role: Role, _ path: String) {
        if roles[key] == nil {
            roles[key] = role
            displayPaths[key] = path
        }
    }

    /// The newest version, no newer than `notAfter`, in which `key` held `hash` (absent:
    /// `VersionIndex.absent`); nil when never.
    func newestVersion(_ key: UInt64, _ hash: UInt64, notAfter: Int = .max) -> Int? {
        guard let list = spans[key] else { return hash == VersionIndex.absent ? min(count - 1, notAfter) : nil }
        var best: Int?
        for span in list where span.hash == hash && span.first <= notAfter {
            let last = min(span.last, notAfter)
            best = max(best ?? last, last)
        }
        return best
    }

    /// The newest version in which the session `identity` had the live list `hash` (not counting
    /// versions where it was only set aside); nil when never.
    func newestLiveListVersion(_ identity: UInt64, _ hash: UInt64) -> Int? {
        metadataKeys[identity].flatMap { newestVersion($0, hash) }
    }

    /// The oldest version in which `key` held `hash`; nil when never.
    func oldestVersion(_ key: UInt64, _ hash: UInt64) -> Int? {
        guard let list = spans[key] else { return hash == VersionIndex.absent ? 0 : nil }
        return list.first { $0.hash == hash }?.first
    }

    /// Whether the path is a known session file.
    func isKnown(_ key: UInt64) -> Bool { roles[key] != nil }

    /// The path of a key relative to the profile, for reports.
    func path(_ key: UInt64) -> String? { displayPaths[key] }
}

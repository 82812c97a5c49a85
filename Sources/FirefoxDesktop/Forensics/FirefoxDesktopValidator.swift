import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Checks Firefox desktop's session files against what Firefox does at startup
/// (docs/firefox-desktop-format.md, loading): the file it loads, what each file it passes over
/// loses, the files it never reads, and whether it restores the session.
public struct FirefoxDesktopValidator: Sendable {
    public init() {}

    /// Validates what `read` holds; reads nothing more.
    public func validate(_ read: InputRead) -> ValidationReport {
        let load = SessionstoreLoad(read)
        let loadedDocument = load.loaded.flatMap { read.sessions[load.candidates[$0].session].sessionstore?.decoded?.document }
        // The loaded file's tabs, only when a file before it is compared with it (the usual profile has none).
        var keptTabs: Set<[String]>?
        func kept() -> Set<[String]> {
            if let keptTabs { return keptTabs }
            let tabs = Set(loadedDocument.map { $0.windows.flatMap { $0.tabs.map(\.identity) } } ?? [])
            keptTabs = tabs
            return tabs
        }
        var findings: [Finding] = []
        for (position, candidate) in load.candidates.enumerated() {
            let session = read.sessions[candidate.session]
            let scope = FindingScope(session: session.source.id, incognito: false, file: session.source.path)
            let decoded = session.sessionstore?.decoded
            if !candidate.tried {
                let tabs = decoded?.document?.tabCount ?? 0
                findings.append(
                    scope.finding(.upgradeBackupUnread, "\(candidate.skipped ?? "never read"); \(counted(tabs, "tab")) can be read from it")
                )
                continue
            }
            let beforeLoaded = load.loaded.map { position < $0 } ?? true
            if beforeLoaded, let why = candidate.skipped {
                let tabs = decoded?.document?.windows.flatMap { $0.tabs.map(\.identity) } ?? []
                let keptTabs = kept()
                let lost = tabs.count { !keptTabs.contains($0) }
                let message =
                    "\(why); Firefox passes over it" + (lost > 0 ? ", losing \(counted(lost, "tab")) that can be read from it" : "")
                let rule: Rule = lost > 0 ? .sessionFileSkipped : .sessionFileDamaged
                findings.append(scope.finding(rule, offset: fileOffset(decoded), message))
            } else if let decoded, decoded.isDamaged {
                let what = decoded.whyNotLoaded ?? "its mozLz4 header: \(decoded.containerDamage?.reason ?? "damaged")"
                let when = position == load.loaded ? "Firefox loads it all the same" : "Firefox loads a file before it"
                findings.append(scope.finding(.sessionFileDamaged, offset: fileOffset(decoded), "\(what); \(when)"))
            }
        }
        if load.loaded == nil, let first = load.candidates.first(where: \.tried) {
            let source = read.sessions[first.session].source
            // What repair would write: every tab of every file, merged in load order.
            let documents = load.candidates.filter(\.tried).compactMap { read.sessions[$0.session].sessionstore?.decoded?.document }
            let readable = SessionstoreMerge(documents)?.document.tabCount ?? 0
            findings.append(
                FindingScope(session: source.id, incognito: false, file: source.path).finding(
                    .sessionFilesNoneLoad,
                    "none of the \(counted(load.candidates.filter(\.tried).count, "session file")) loads; Firefox starts with an empty session, and \(counted(readable, "tab")) can be read from them"
                ))
        }
        if let loaded = load.loaded, load.restore == .deferred || load.restore == .recoverOnPage {
            let source = read.sessions[load.candidates[loaded].session].source
            findings.append(
                FindingScope(session: source.id, incognito: false, file: source.path).finding(
                    .sessionNotRestoredAtLaunch,
                    "\(load.reason): Firefox \(load.restore == .deferred ? "keeps the session behind Restore previous session" : "shows the session on about:sessionrestore")"
                ))
        }
        var report = ValidationReport(
            findings: findings, sessions: loadedDocument?.windows.count ?? 0, tabs: loadedDocument?.tabCount ?? 0)
        report.browser = read.input.browser
        report.sources = read.input.sessions
        return report
    }

    /// The offset of a file's first bad byte in the file itself: the mozLz4 block's damage, or the
    /// JSON's in a plain file (in a compressed file the JSON's offset is in the message alone).
    private func fileOffset(_ decoded: SessionstoreFile?) -> Int? {
        guard let decoded else { return nil }
        if let damage = decoded.containerDamage { return damage.fileOffset }
        if decoded.container == .plain { return decoded.decoded.damage?.offset }
        return nil
    }

}

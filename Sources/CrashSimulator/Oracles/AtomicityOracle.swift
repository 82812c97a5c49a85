import SessionFormats
import SessionModel

/// Atomicity: every live session file after recovery holds content some save produced (no file is
/// half-written, no session is a mix no save made), and each restored tab's data is at least as
/// new as the list that names it.
public enum AtomicityOracle {
    static func check(_ scan: ProfileScan, loads: [SessionLoad], versions: VersionIndex, names: NameTable) -> [Finding] {
        var findings: [Finding] = []
        for (session, load) in zip(scan.sessions, loads) {
            let directory = SessionPaths.directory(session, names)
            var metadataOldest: Int?
            if let metadata = session.metadata {
                if let oldest = versions.oldestVersion(session.metadataKey, metadata.hash) {
                    metadataOldest = oldest
                } else {
                    let accepted = load.loss == nil ? "the loader accepts it" : "the loader rejects it"
                    findings.append(
                        Finding(.atomicity, "\(directory)/session_metadata.pb is \(metadata.count) bytes that no save wrote (\(accepted))"))
                }
            }
            guard load.loss == nil else { continue }
            let byID = Dictionary(session.tabs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in load.tabs {
                guard let tab = byID[id], let data = tab.data else { continue }
                guard let newest = versions.newestVersion(tab.dataKey, data.hash) else {
                    findings.append(
                        Finding(.atomicity, "\(directory)/\(Tab.directoryName(for: id))/data.pb is \(data.count) bytes that no save wrote"))
                    continue
                }
                if let metadataOldest, newest < metadataOldest {
                    findings.append(
                        Finding(
                            .atomicity,
                            "tab \(id) of \(directory): data.pb is from version \(newest), older than the list naming it (version \(metadataOldest)): a mix no save produced"
                        ))
                }
            }
        }
        return findings
    }
}

/// Display paths of scanned sessions.
enum SessionPaths {
    /// `SessionStorage/<id>` or `OTR/SessionStorage/<id>`.
    static func directory(_ session: ProfileScan.SessionEntry, _ names: NameTable) -> String {
        ProfileLayout.sessionDirectory(names.name(session.name), incognito: session.incognito)
    }
}

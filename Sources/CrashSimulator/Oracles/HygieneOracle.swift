import SessionFormats
import SessionStore

/// Hygiene: after recovery no temporary file (nor a replaced file's backup) is left anywhere in
/// the profile, none is loaded as a session, and nothing stands where Chrome's layout has no
/// place for it (judged by the layout, whatever the name: the store's own idea of its temporary
/// names is not trusted).
public enum HygieneOracle {
    static func check(_ scan: ProfileScan, tree: ModelTree, profile: Int32?) -> [Finding] {
        var findings: [Finding] = []
        for session in scan.sessions where AtomicWriter.isTemporaryName(tree.names.name(session.name)) {
            findings.append(Finding(.hygiene, "the temporary entry \(SessionPaths.directory(session, tree.names)) is loaded as a session"))
        }
        if let key = scan.temporaryEntries.first {
            let path = ProfileScan.path(of: key, in: tree, profile: profile) ?? "a temporary file"
            let more = scan.temporaryEntries.count > 1 ? " (and \(scan.temporaryEntries.count - 1) more)" : ""
            findings.append(Finding(.hygiene, "\(path) is left over after recovery\(more)"))
        }
        if let key = scan.strayEntries.first {
            let path = ProfileScan.path(of: key, in: tree, profile: profile) ?? "an entry"
            let more = scan.strayEntries.count > 1 ? " (and \(scan.strayEntries.count - 1) more)" : ""
            findings.append(Finding(.hygiene, "\(path) is not part of Chrome's layout nor a file the store documents\(more)"))
        }
        return findings
    }
}

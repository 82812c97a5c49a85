import SessionFormats
import SessionStore

/// Hygiene: after recovery no temporary file (nor a replaced file's backup) is left anywhere in
/// the profile, and none is loaded as a session.
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
        return findings
    }
}

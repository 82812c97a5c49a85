import FileSystemKit
import SessionFormats
import SessionStore

/// Hygiene: after recovery no temporary file (nor a replaced file's backup) is left anywhere in
/// the profile, none is loaded as a session, and nothing stands where Chrome's layout has no
/// place for it (judged by the layout, whatever the name: the store's own idea of its temporary
/// names is not trusted). Entries that the starting profile already held outside the layout
/// (`userEntries`) are the user's: the store keeps them and is not charged with them.
public enum HygieneOracle {
    static func check(_ scan: ProfileScan, tree: ModelTree, profile: Int32?, userEntries: Set<UInt64> = []) -> [Finding] {
        var findings: [Finding] = []
        for session in scan.sessions where AtomicWriter.isTemporaryName(tree.names.name(session.name)) {
            findings.append(Finding(.hygiene, "the temporary entry \(SessionPaths.directory(session, tree.names)) is loaded as a session"))
        }
        if let path = firstPath(scan.temporaryEntries, tree: tree, profile: profile, otherwise: "a temporary file") {
            let more = scan.temporaryEntries.count > 1 ? " (and \(scan.temporaryEntries.count - 1) more)" : ""
            findings.append(Finding(.hygiene, "\(path) is left over after recovery\(more)"))
        }
        let strays = userEntries.isEmpty ? scan.strayEntries : scan.strayEntries.filter { !userEntries.contains($0) }
        if let path = firstPath(strays, tree: tree, profile: profile, otherwise: "an entry") {
            let more = strays.count > 1 ? " (and \(strays.count - 1) more)" : ""
            findings.append(Finding(.hygiene, "\(path) is not part of Chrome's layout nor a file the store documents\(more)"))
        }
        return findings
    }

    /// The first path in byte order of the entries `keys` (each `otherwise` when it has none), so
    /// that a message names the same entry whatever order the scan met them in (it follows the
    /// tree's dictionaries, which two trees of one hash may fill in different orders); nil
    /// without entries.
    private static func firstPath(_ keys: [UInt64], tree: ModelTree, profile: Int32?, otherwise: String) -> String? {
        sortedByBytes(keys.map { ProfileScan.path(of: $0, in: tree, profile: profile) ?? otherwise }).first
    }
}

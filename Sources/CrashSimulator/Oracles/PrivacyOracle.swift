/// Privacy: after an acknowledged close-all-incognito, no incognito URL or title of the tabs it
/// closed remains in any file reachable in the profile, before or after recovery.
public enum PrivacyOracle {
    /// The privacy groups found in the files of a scan.
    static func groupsFound(in files: [(key: UInt64, blob: Blob)], index: PrivacyIndex) -> UInt64 {
        files.reduce(0) { mask, file in mask | index.groupsFound(in: file.blob.bytes) }
    }

    /// The finding for a state whose files contain the groups `found`, given the groups whose
    /// closing was acknowledged before the crash (`acknowledged`); nil when none leaks.
    static func check(found: UInt64, acknowledged: UInt64, detail: (Int) -> String) -> Finding? {
        let leaked = found & acknowledged
        guard leaked != 0 else { return nil }
        let group = leaked.trailingZeroBitCount
        return Finding(.privacy, "after the acknowledged close-all-incognito #\(group + 1), \(detail(group))")
    }
}

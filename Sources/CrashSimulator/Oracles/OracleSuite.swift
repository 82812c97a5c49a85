import SessionFormats
import SessionStore

/// The oracles that judge a profile after recovery: used on simulated crash states (`StateJudge`) and on the directories a killed child left (`KillJudge`).
struct OracleSuite {
    let recording: Recording

    /// The starting profile's losses to Chrome's rules, as `CollateralLossOracle` takes them.
    private let allowedLosses: Set<String>

    init(recording: Recording) {
        self.recording = recording
        allowedLosses = Set(recording.starting.chromeRuleLosses)
    }

    /// Whether the recording closed any incognito tabs worth searching for.
    var checksPrivacy: Bool { !recording.privacy.groups.isEmpty }

    /// Atomicity, collateral-loss and hygiene findings and the durability floor of a tree after
    /// recovery, with the scan they came from (its files listed when privacy is checked).
    func assess(_ tree: ModelTree, profile: Int32?) -> (findings: [Finding], floor: DurabilityOracle.Floor, scan: ProfileScan) {
        let scan = ProfileScan(tree: tree, profile: profile, names: ProfileNames(tree.names), collectFiles: checksPrivacy)
        let loads = scan.sessions.map { SessionLoader.compute($0, tree: tree) }
        var findings: [Finding] = []
        findings += AtomicityOracle.check(scan, loads: loads, versions: recording.versions, names: tree.names)
        findings += CollateralLossOracle.check(scan, loads: loads, names: tree.names, allowed: allowedLosses)
        findings += HygieneOracle.check(scan, tree: tree, profile: profile, userEntries: recording.starting.userEntries)
        let asideLoads = scan.backups.map { entry in entry.contents.map { SessionLoader.compute($0, tree: tree) } }
        let floor = DurabilityOracle.floor(scan, loads: loads, asideLoads: asideLoads, versions: recording.versions, names: tree.names)
        return (findings, floor, scan)
    }

    /// The privacy groups whose strings a tree's files hold (`scan`: one already made with its
    /// files), with where, for each group of `detailing` not detailed yet. With `byContent`
    /// and no scan, the groups are found by a walk of the tree's files, and the profile is
    /// scanned only when a group must be detailed.
    func privacy(
        _ tree: ModelTree, profile: Int32?, scan given: ProfileScan? = nil, byContent: Bool = false, detailing: UInt64 = ~0,
        when: String, into details: inout [Int: String]
    ) -> UInt64 {
        guard checksPrivacy else { return 0 }
        if given == nil, byContent {
            guard let profile else { return 0 }
            let found = privacy(below: profile, in: tree)
            guard found & detailing != 0 else { return found }
        }
        let scan = given ?? ProfileScan(tree: tree, profile: profile, names: ProfileNames(tree.names), collectFiles: true)
        let found = PrivacyOracle.groupsFound(in: scan.files, index: recording.privacy)
        guard found != 0 else { return 0 }
        for group in 0..<recording.privacy.groups.count
        where found & detailing & (UInt64(1) << UInt64(group)) != 0 && details[group] == nil {
            // The first path in byte order among the files holding one, whatever order the scan
            // found them in (it follows the tree's dictionaries), so that the message is the same
            // on every run.
            var first: (path: String, text: String)?
            for file in scan.files {
                guard let text = recording.privacy.firstString(of: group, in: file.blob.bytes) else { continue }
                let path = ProfileScan.path(of: file.key, in: tree, profile: profile) ?? "a file"
                if first.map({ path.utf8.lexicographicallyPrecedes($0.path.utf8) }) ?? true { first = (path, text) }
            }
            if let first { details[group] = "\(first.path) still holds \"\(first.text)\" (\(when))" }
        }
        return found
    }

    /// The privacy groups found in the files below `directory` (what a scan of it finds), by a
    /// walk of the tree alone.
    private func privacy(below directory: Int32, in tree: ModelTree) -> UInt64 {
        var mask: UInt64 = 0
        for (_, inode) in tree.entries(of: directory) {
            if tree.isDirectory(inode) == true {
                mask |= privacy(below: inode, in: tree)
            } else if let blob = tree.blob(of: inode) {
                mask |= recording.privacy.groupsFound(in: blob.bytes)
            }
        }
        return mask
    }
}

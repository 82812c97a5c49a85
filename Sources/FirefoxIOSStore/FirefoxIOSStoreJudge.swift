@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// Judges a crash state of Firefox for iOS's tab store by what Firefox loads at the next launch,
/// window by window, against the saves that had returned before the crash.
///
/// A window must load as its last returned save wrote it, or as a later save did (durability);
/// what loads must be what some save wrote (atomicity). A window that loads from neither file
/// while a save of it had returned is lost whole.
public final class FirefoxIOSStoreJudge: StoreStateJudge {
    /// How a state's windows load, the worst of them.
    public typealias Outcome = StoreOutcome

    let run: FirefoxIOSStoreRun
    /// Every save's bytes: they decode, as what Firefox's encoder wrote.
    private let saved: Set<[UInt8]>
    /// Whether Firefox decodes bytes no save wrote, by their content hash.
    private let decoded: Memo<Bool>
    private let takesShortcuts: Bool

    public init(run: FirefoxIOSStoreRun, takesShortcuts: Bool) {
        self.run = run
        self.takesShortcuts = takesShortcuts
        saved = Set(run.saves.map(\.bytes))
        decoded = Memo(.storeDecodes, takesShortcuts: takesShortcuts)
    }

    /// Whether Firefox decodes `bytes`, when that is known without decoding them: a save's bytes
    /// do; others are decoded once and remembered. Without shortcuts every file is decoded.
    private func decodes(_ bytes: [UInt8]) -> Bool? {
        guard takesShortcuts else { return nil }
        if saved.contains(bytes) { return true }
        return decoded.value(decoded.key.with(ContentHash.of(bytes)).with(bytes.count)) {
            FirefoxWindowDecoder.decode(bytes).loadsInFirefox
        }
    }

    /// The findings and outcome of `tree` crashed after `crashPoint` operations, `returned` saves having returned.
    public func judge(_ tree: ModelTree, crashPoint: Int, returned: Int) -> (findings: [Finding], outcome: Outcome) {
        let fileSystem = ModelFileSystem(tree: tree, firstInode: tree.inodeCapacity + 10_000, tracksExactContent: false)
        var findings: [Finding] = []
        var outcome = Outcome.latest
        for id in run.windowIDs {
            let saves = run.saves.enumerated().filter { $0.element.window == id }
            let last = saves.last { $0.offset < returned }
            let loaded = FirefoxWindowLoad.load(id, from: fileSystem, paths: run.paths, decodes: decodes)
            guard let source = loaded.source else {
                // A window whose last save held no tab loses nothing by loading none.
                if let last, !last.element.tabs.isEmpty {
                    outcome = max(outcome, .lost)
                    findings.append(
                        Finding(
                            .durability,
                            "window \(id) is lost: neither its file nor its backup decodes, and \(last.element.label) had returned with \(counted(last.element.tabs.count, "tab")) (Firefox opens one new tab)"
                        ))
                }
                continue
            }
            // Only saves begun before the crash can have written what loads: those that returned, and
            // the one in progress.
            let matching = saves.filter {
                ($0.offset < returned || $0.element.startOperations < crashPoint) && $0.element.bytes == loaded.bytes
            }
            guard let newest = matching.last else {
                outcome = max(outcome, .torn)
                findings.append(Finding(.atomicity, "window \(id) loads from \(source.rawValue) bytes that no save wrote"))
                continue
            }
            if let last, newest.offset < last.offset {
                outcome = max(outcome, .older)
                let kept = Set(zip(newest.element.tabs, newest.element.pages).map { $0.0 + " " + $0.1 })
                let lost = zip(last.element.tabs, last.element.pages).filter { !kept.contains($0.0 + " " + $0.1) }.count
                let what =
                    lost > 0
                    ? "\(lost) of its \(counted(last.element.tabs.count, "tab")) missing or on an earlier page"
                    : "its \(counted(last.element.tabs.count, "tab")) there, but in that save's order, or with its active tab"
                findings.append(
                    Finding(
                        .durability,
                        "window \(id) loads from \(source.rawValue) as \(newest.element.label) wrote it, not as \(last.element.label), which had returned: \(what)"
                    ))
            }
        }
        return (findings, outcome)
    }

}

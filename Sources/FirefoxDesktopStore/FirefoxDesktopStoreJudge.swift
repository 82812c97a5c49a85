import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

/// Judges a crash state of Firefox desktop's session store by what Firefox loads at the next
/// launch (`SessionstoreLoad`, the order and checks the validator follows), against the writes
/// that had returned before the crash.
///
/// The session must load as the last returned write wrote it, or as a later write did
/// (durability); what loads must be what some write wrote (atomicity). When no file loads while a
/// write holding tabs had returned, the session is lost whole.
public final class FirefoxDesktopStoreJudge: StoreStateJudge {
    let run: FirefoxDesktopStoreRun

    public init(run: FirefoxDesktopStoreRun, takesShortcuts: Bool) { self.run = run }

    public func judge(_ tree: ModelTree, crashPoint: Int, returned: Int) -> (findings: [Finding], outcome: StoreOutcome) {
        let fileSystem = ModelFileSystem(tree: tree, firstInode: tree.inodeCapacity + 10_000, tracksExactContent: false)
        let last = returned > 0 ? run.saves[returned - 1] : nil
        let profile = ReadableTree(fileSystem: fileSystem, root: FirefoxDesktopStoreRun.profile)
        var loadedBytes: [UInt8]?
        var loadedFile = ""
        if let located = try? BrowserFamilies.locate(tree: profile, ancestry: [], browser: FirefoxDesktopFamily()) {
            let read = InputRead(located, depth: .lists)
            let load = SessionstoreLoad(read)
            if let index = load.loaded {
                let session = read.sessions[load.candidates[index].session]
                loadedBytes = session.sessionstore?.file.bytes
                loadedFile = session.source.id
            }
        }
        guard let bytes = loadedBytes else {
            guard let last, !last.tabs.isEmpty else { return ([], .latest) }
            return (
                [
                    Finding(
                        .durability,
                        "the session is lost: no session file loads, and \(last.label) had returned with \(counted(last.tabs.count, "tab")) (Firefox starts with an empty session)"
                    )
                ], .lost
            )
        }
        // Only writes begun before the crash can have written what loads: those that returned, and the one in progress.
        let matching = run.saves.enumerated().filter {
            ($0.offset < returned || $0.element.startOperations < crashPoint) && $0.element.bytes == bytes
        }
        guard let newest = matching.last else {
            return ([Finding(.atomicity, "Firefox loads \(loadedFile), whose bytes no write wrote")], .torn)
        }
        guard let last, newest.offset < returned - 1 else { return ([], .latest) }
        let kept = Set(newest.element.tabs)
        let lost = last.tabs.filter { !kept.contains($0) }.count
        let what =
            lost > 0
            ? "\(lost) of its \(counted(last.tabs.count, "tab")) missing or on an earlier page"
            : "its \(counted(last.tabs.count, "tab")) there, but in that write's order or selection"
        return (
            [
                Finding(
                    .durability,
                    "Firefox loads \(loadedFile) as \(newest.element.label) wrote it, not as \(last.label), which had returned: \(what)")
            ], .older
        )
    }

}

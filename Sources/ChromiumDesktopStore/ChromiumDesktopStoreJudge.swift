import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// Judges a crash state of Chromium desktop's session store by what Chrome restores at the next
/// launch (`SNSSLoad`: the newest file it can take as the last session, read until its records
/// stop), against the batches that had returned before the crash.
///
/// Chrome must read the file a returned batch went to at least as far as that batch ended, or a
/// later file with its marker (durability); where it reads bytes that were never written there,
/// the windows it restores must be those the records written before them make (atomicity). When the file it takes restores no tab while a batch holding tabs had returned,
/// the session is lost whole.
public final class ChromiumDesktopStoreJudge: StoreStateJudge {
    let run: ChromiumDesktopStoreRun

    public init(run: ChromiumDesktopStoreRun, takesShortcuts: Bool) { self.run = run }

    /// What Chrome takes at launch: the file's name, how far it reads it, and the tabs it restores.
    struct Restore {
        var name: String
        var bytes: FileBytes
        /// The end of the last record Chrome reads (the header's end when none; 0 when it does not read the header).
        var consumed: Int
        var tabs: [[String]]
        /// Each window's tabs, each its history's URLs and whether pinned: what is compared with a
        /// replay of the bytes that were written.
        var shape: [[TabShape]]
    }

    /// A restored tab as compared: its history's URLs and its pinned state.
    struct TabShape: Equatable {
        var urls: [String]
        var pinned: Bool
    }

    /// The windows Chrome's replay of `replay` leaves, as compared.
    static func shape(_ replay: SNSSReplay?) -> [[TabShape]] {
        (replay?.windows ?? []).map { $0.tabs.map { TabShape(urls: $0.navigations.map(\.url), pinned: $0.pinned) } }
    }

    /// What Chrome restores from the profile in `tree`, or nil when it takes no file.
    static func restore(_ tree: ModelTree) -> Restore? {
        let fileSystem = ModelFileSystem(tree: tree, firstInode: tree.inodeCapacity + 10_000, tracksExactContent: false)
        let profile = ReadableTree(fileSystem: fileSystem, root: ChromiumDesktopStoreRun.profile)
        guard let located = try? BrowserFamilies.locate(tree: profile, ancestry: [], browser: ChromiumDesktopFamily()) else { return nil }
        let read = InputRead(located, depth: .lists)
        guard let (candidate, file) = SNSSLoad(read).restoredSession(read) else { return nil }
        // A header Chrome does not read (a file whose first bytes never reached the disk): nothing read.
        let records = file.file.records.prefix(file.readByChrome ? file.file.readByChrome : 0)
        let consumed = file.readByChrome ? records.last.map(\.contents.upperBound) ?? SNSSFile.headerSize : 0
        let tabs = (file.chrome?.windows ?? []).flatMap { $0.tabs.map { $0.navigations.map(\.url) } }
        return Restore(
            name: lastPathComponent(read.sessions[candidate.session].source.path), bytes: file.file.bytes, consumed: consumed, tabs: tabs,
            shape: shape(file.chrome))
    }

    /// The findings and outcome of `tree` crashed after `crashPoint` operations, `returned` batches having returned.
    public func judge(_ tree: ModelTree, crashPoint: Int, returned: Int) -> (findings: [Finding], outcome: StoreOutcome) {
        let last = returned > 0 ? run.saves[returned - 1] : nil
        guard let restore = Self.restore(tree) else {
            guard let last, !last.tabs.isEmpty else { return ([], .latest) }
            return (
                [
                    Finding(
                        .durability,
                        "the session is lost: Chrome finds no session file it can take, and \(last.label) had returned with \(counted(last.tabs.count, "tab"))"
                    )
                ], .lost
            )
        }
        let intended = run.intended[restore.name] ?? []
        // Bytes read that were never written (a power loss can leave a cut batch zero- or
        // garbage-filled, and SNSS records carry no checksum) matter when Chrome restores from
        // them windows other than the records written before them make.
        if let differing = (0..<restore.consumed).first(where: { $0 >= intended.count || restore.bytes[$0] != intended[$0] }) {
            let written = SNSSSessionFile.decode(Array(intended.prefix(differing)), type: .session)
            if Self.shape(written.chrome) != restore.shape {
                return (
                    [
                        Finding(
                            .atomicity,
                            "Chrome restores Sessions/\(restore.name) from bytes that were never written there (from byte \(differing)), and its windows differ from what the records written before them make"
                        )
                    ], .torn
                )
            }
        }
        guard let last else { return ([], .latest) }
        // Batches begun before the crash: those that returned, and the one in progress.
        let covering = run.saves.enumerated().contains { index, save in
            index >= returned - 1 && (index < returned || save.startOperations < crashPoint) && save.written.name == restore.name
                && restore.consumed >= save.written.end
        }
        if covering { return ([], .latest) }
        let kept = Set(restore.tabs)
        let lost = last.tabs.filter { !kept.contains($0) }.count
        let read =
            restore.consumed == 0
            ? "\(restore.bytes.count) bytes without the header Chrome reads: it restores nothing from it"
            : "read to byte \(restore.consumed) of \(restore.bytes.count)"
        let what =
            lost > 0
            ? "\(lost) of its \(counted(last.tabs.count, "tab")) missing or on an earlier page"
            : "its \(counted(last.tabs.count, "tab")) there, but not as that batch left them"
        let message =
            "Chrome restores Sessions/\(restore.name) (\(read)), not as far as \(last.label) wrote Sessions/\(last.written.name) (to byte \(last.written.end)), which had returned: \(what)"
        return ([Finding(.durability, message)], lost == last.tabs.count && lost > 0 ? .lost : .older)
    }

}

import FileSystemKit
import SessionForensics
import SessionModel

/// Listed entries that name no tab (no valid id, no URL, no title: see `Tab.namesATab`). Each is
/// given a fresh id, then left out of the list, as any tab with nothing to save is; they are kept
/// as runs of consecutive entries instead of one candidate each, so that a list of millions of
/// empty entries costs what its real tabs cost. The steps recorded are the same, in the same order.
extension SessionRebuilder {
    /// Consecutive listed entries that name no tab, given consecutive fresh ids.
    struct NamelessRun {
        /// The stored index of the first.
        var start: Int
        /// The fresh id of the first.
        var firstID: TabID
        var count: Int

        /// The stored index just past the run.
        var end: Int { start + count }
    }

    /// The steps that give the entries of `run` their fresh ids (`stored` is the list read).
    mutating func recordFreshIDs(_ run: NamelessRun, stored: Session) {
        let file = metadataPath
        record(.tabIDInvalid, count: run.count) { k in
            let index = run.start + k
            return (
                file, "give tab \(index) (#\(stored.tabs[index].id)) the new id \(run.firstID + TabID(k))",
                "an id that is not positive makes Chrome load the whole window empty and delete its tabs"
            )
        }
    }

    /// The steps that leave the entries of `run` out of the list (`stored` is the list read).
    mutating func recordLeftOut(_ run: NamelessRun, stored: Session) {
        let directory = snapshot.path
        record(.tabDirectoryMissing, count: run.count) { k in
            let index = run.start + k
            return (
                joinPath(directory, Tab.directoryName(for: run.firstID + TabID(k))),
                "leave tab \(index) (#\(stored.tabs[index].id)) out of the list",
                "it has no directory and its list entry has neither URL nor title: nothing of it is left to save"
            )
        }
    }
}

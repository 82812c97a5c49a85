import SessionFormats
import SessionModel
import SessionStore

/// Carries out a repair plan: each session directory is first set aside whole, as `aside push`
/// does (a rename into `Backups/`, then a manifest with every file's size and SHA-256), and only
/// then written anew through the `AtomicWriter`: each tab's data.pb and state.pb, and
/// session_metadata.pb last; or, for a legacy session, its session.plist. Nothing is edited in place and nothing is deleted: whatever the
/// repaired session leaves out stays in the set-aside entry.
struct RepairExecutor {
    let aside: Aside

    var writer: AtomicWriter { aside.writer }

    /// Applies `plan`; returns what was done, in order.
    func apply(_ plan: RepairPlan) throws -> [RepairStep] {
        var steps: [RepairStep] = []
        for repair in plan.sessions {
            let directory = joinPath(aside.profile, repair.directory)
            let mode = (writer.fileSystem.permissions(of: directory) ?? 0o755) & 0o777
            if repair.setsAside {
                let rules = Array(Set(repair.actions.map(\.rule.name))).sorted().joined(separator: ", ")
                let entry = try aside.push(repair.session, incognito: repair.incognito, directory: repair.directory,
                                           reason: "sessionctl repair, before fixing: \(rules)")
                steps.append(.setAside(directory: repair.directory, entry: entry.name, path: entry.path))
            }
            try writer.makeDirectories(directory, mode: mode)
            for tab in repair.repaired.tabs {
                let relative = treePath(repair.directory, tab.directory)
                try writer.makeDirectories(joinPath(aside.profile, relative), mode: mode)
                try write(tab.data, treePath(relative, ProfileLayout.tabDataFile), &steps)
                if let state = tab.state { try write(state, treePath(relative, ProfileLayout.tabStateFile), &steps) }
            }
            try write(repair.repaired.metadata, treePath(repair.directory, ProfileLayout.metadataFile), &steps)
        }
        for rewrite in plan.rewrites {
            let directory = joinPath(aside.profile, rewrite.directory)
            let mode = (writer.fileSystem.permissions(of: directory) ?? 0o755) & 0o777
            let rules = Array(Set(rewrite.actions.map(\.rule.name))).sorted().joined(separator: ", ")
            let entry = try aside.push(rewrite.session, incognito: rewrite.incognito, directory: rewrite.directory,
                                       reason: "sessionctl repair, before fixing: \(rules)")
            steps.append(.setAside(directory: rewrite.directory, entry: entry.name, path: entry.path))
            try writer.makeDirectories(directory, mode: mode)
            try write(rewrite.bytes, rewrite.file, &steps)
        }
        for legacy in plan.legacy {
            let entry = try aside.push(legacy.session, incognito: legacy.incognito, directory: legacy.directory,
                                       reason: "sessionctl repair: \(legacy.action.rule.name)")
            steps.append(.setAside(directory: legacy.directory, entry: entry.name, path: entry.path))
        }
        return steps
    }

    private func write(_ bytes: [UInt8], _ relative: String, _ steps: inout [RepairStep]) throws(StoreError) {
        try writer.write(bytes, to: joinPath(aside.profile, relative))
        steps.append(.wrote(relative))
    }
}

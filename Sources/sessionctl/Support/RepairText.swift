import SessionForensics

/// The text view of `repair`: the plan session by session, what was done, and what is left.
enum RepairText {
    static func print(_ result: Repairer.Result) {
        let plan = result.plan
        if plan.isEmpty {
            Output.line("plan: nothing to change")
        } else {
            Output.line(result.dryRun ? "plan (dry run, nothing is changed):" : "plan:")
            for repair in plan.sessions {
                Output.line("  \(repair.incognito ? "incognito " : "")session \(repair.session) (\(repair.directory)):")
                if repair.setsAside {
                    Output.line(
                        "    set \(repair.directory)/ aside whole, then write it anew with \(repair.tabs) tab\(repair.tabs == 1 ? "" : "s")"
                    )
                }
                for action in repair.actions { line(action) }
                let effects = repair.effects
                if !effects.isEmpty {
                    Output.line("    for the window:")
                    for effect in effects {
                        let change = effect.from.isEmpty ? effect.to : effect.to.isEmpty ? effect.from : "\(effect.from) -> \(effect.to)"
                        Output.line("      \(effect.what): \(change)")
                    }
                }
            }
            for rewrite in plan.rewrites {
                Output.line("  \(rewrite.incognito ? "incognito " : "")legacy session \(rewrite.session) (\(rewrite.directory)):")
                Output.line(
                    "    set \(rewrite.directory)/ aside whole, then write \(rewrite.file) anew with \(rewrite.tabs) tab\(rewrite.tabs == 1 ? "" : "s")"
                )
                for action in rewrite.actions { line(action) }
            }
            for window in plan.fileRewrites {
                Output.line("  \(window.kind) \(window.window) (\(window.file)):")
                let aside = window.setAside.isEmpty ? "" : "set \(window.setAside.joined(separator: ", ")) aside"
                let states =
                    window.stateFiles.isEmpty
                    ? ""
                    : "write \(window.stateFiles.count) tab session state\(window.stateFiles.count == 1 ? "" : "s") in tab-session-data/"
                let written = window.writesWindow ? "write \(window.file) anew with \(window.tabs) tab\(window.tabs == 1 ? "" : "s")" : ""
                Output.line("    " + [aside, states, written].filter { !$0.isEmpty }.joined(separator: ", then "))
                for action in window.actions { line(action) }
            }
            for legacy in plan.legacy {
                Output.line("  \(legacy.incognito ? "incognito " : "")legacy session \(legacy.session) (\(legacy.directory)):")
                line(legacy.action)
            }
        }
        if !result.steps.isEmpty {
            Output.line()
            Output.line("done:")
            for step in result.steps {
                switch step {
                case .setAside(let directory, let entry, let path): Output.line("  set aside \(directory)/ as \(entry) (\(path)/)")
                case .setAsideFiles(let files, let entry, let path):
                    Output.line("  set aside \(files.joined(separator: ", ")) as \(entry) (\(path)/)")
                case .removed(let path): Output.line("  removed \(path) (set aside)")
                case .wrote(let path): Output.line("  wrote \(path)")
                case .finishedInterrupted(let directory): Output.line("  finished the interrupted repair of \(directory)/")
                case .removedUnfinished(let directory):
                    Output.line("  removed \(directory), left unfinished by an interrupted run (the live session was untouched)")
                case .settledSetAside(let what): Output.line("  settled an interrupted set-aside: \(what)")
                }
            }
        }
        Output.line()
        // Errors no repair can fix (an encrypted session file, say) are left, and said to be: after
        // a run, the errors validate still finds; before one (a dry run), those of rules repair
        // leaves alone, not every error the plan repairs.
        let left = result.after?.findings ?? result.plan.before.findings.filter { !$0.needsRepair }
        let leftAlone = left.count { $0.severity == .error }
        if result.isClean && leftAlone > 0 {
            Output.line(
                "result: nothing left that repair fixes; \(leftAlone) error\(leftAlone == 1 ? "" : "s") it leaves as \(leftAlone == 1 ? "it is" : "they are") (sessionctl validate says why)"
            )
        } else if result.isClean {
            Output.line(result.dryRun ? "result: the plan repairs everything that needs it" : "result: the profile validates clean")
        } else {
            let count = result.remaining.count
            Output.line("result: \(count) problem\(count == 1 ? "" : "s") \(result.dryRun ? "would be left" : "could not be repaired"):")
            for finding in result.remaining {
                let place = finding.offset.map { "\(finding.file) at byte \($0)" } ?? finding.file
                Output.line("  \(finding.severity.rawValue) \(finding.rule.name) \(place): \(finding.message)")
            }
        }
    }

    private static func line(_ action: RepairAction) {
        Output.line("    [\(action.rule.name)] \(action.action)")
        Output.line("        why: \(action.reason)")
    }
}

import SessionForensics

/// The text view of `migrate`: per side, what is finished first, each session converted with its
/// changes, and what was written and set aside.
enum MigrateText {
    private static func origin(_ origin: MigrationChange.Origin) -> String {
        switch origin {
        case .chrome: "as Chrome does"
        case .firefox: "as Firefox does"
        case .sessionctl: "by sessionctl"
        }
    }

    static func print(_ plan: MigrationPlan, outcome: MigrationOutcome?) {
        let verb = outcome == nil ? "would" : "did"
        if plan.isEmpty {
            Output.line("nothing to do: the profile is already in the \(plan.target.rawValue) format")
            return
        }
        for side in plan.sides {
            let kind = side.incognito ? "incognito sessions (OTR/)" : "regular sessions"
            Output.line("\(kind):")
            if side.abandonedNewTree { Output.line("  remove the half-written tree of an interrupted migration") }
            for id in side.displacedSessions { Output.line("  set aside \(id), moved out of the way by an interrupted migration") }
            for id in side.shadowedLegacySessions { Output.line("  set aside legacy session \(id), shadowed by SessionStorage/") }
            guard let conversion = side.conversion else {
                Output.line("  already in the \(plan.target.rawValue) format")
                continue
            }
            Output.line(
                "  convert \(conversion.sessions.count) session\(conversion.sessions.count == 1 ? "" : "s") from \(conversion.from.rawValue) to \(plan.target.rawValue):"
            )
            for session in conversion.sessions {
                var line = "    \(session.id): \(session.sourceTabCount) tab\(session.sourceTabCount == 1 ? "" : "s")"
                if session.session.tabs.count != session.sourceTabCount { line += " -> \(session.session.tabs.count)" }
                if !session.stateLinks.isEmpty {
                    line += ", \(session.stateLinks.count) web state file\(session.stateLinks.count == 1 ? "" : "s") linked"
                }
                Output.line(line)
                for change in session.changes {
                    let tab = change.tab.map { "tab \($0): " } ?? ""
                    Output.line("      \(tab)\(change.message) [\(origin(change.origin))]")
                }
            }
        }
        guard let outcome else {
            Output.line("")
            Output.line("dry run: nothing was changed (\(plan.target.kept)\(plan.target.setAside) \(verb) be set aside under Backups/)")
            return
        }
        for path in outcome.removed { Output.line("removed \(path)") }
        for path in outcome.written { Output.line("wrote \(path)") }
        for entry in outcome.setAside { Output.line("set aside \(entry.key.id)@\(entry.stamp) in \(entry.path)") }
    }
}

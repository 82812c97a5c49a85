import SessionFormats
import SessionModel

/// No collateral loss: run with Chrome's loading semantics (docs/chrome-ios-format.md, how Chrome
/// loads) on what recovery leaves, the loader would not lose a whole session, drop a tab of the
/// restored list, or restore a tab without its data.pb (lost at the next save).
///
/// Dropped tabs and tabs without data are allowed only where Chrome's own rules already shorten
/// the starting profile's session the same way (`allowed`: `StartingFacts.chromeRuleLosses`) and
/// the session as it stands (the same session_metadata.pb) is also kept in `Backups/`, whose
/// entries the set-aside oracle verifies whole. Whatever the store's own writes leave shortened
/// is a finding.
public enum CollateralLossOracle {
    static func check(_ scan: ProfileScan, loads: [SessionLoad], names: NameTable, allowed: Set<String> = []) -> [Finding] {
        var findings: [Finding] = []
        for (session, load) in zip(scan.sessions, loads) {
            let directory = SessionPaths.directory(session, names)
            if load.loss == nil, !allowed.isEmpty, let metadata = session.metadata,
                load.shortenings.allSatisfy({ allowed.contains("\(directory): \($0)") }),
                scan.backups.contains(where: {
                    $0.incognito == session.incognito && $0.session == session.name && $0.metadata?.hash == metadata.hash
                })
            {
                continue
            }
            if let loss = load.loss {
                if !session.tabs.isEmpty {
                    findings.append(
                        Finding(
                            .collateralLoss,
                            "\(directory): \(loss): Chrome would load the window empty and delete its \(session.tabs.count) tab director\(session.tabs.count == 1 ? "y" : "ies")"
                        ))
                }
                continue
            }
            for (id, reason) in load.dropped {
                findings.append(Finding(.collateralLoss, "\(directory): Chrome would drop tab \(id) (\(reason))"))
            }
            for id in load.withoutData {
                findings.append(
                    Finding(
                        .collateralLoss,
                        "\(directory): tab \(id) is listed but its data.pb is missing: Chrome restores it empty and loses it at the next save"
                    ))
            }
        }
        return findings
    }
}

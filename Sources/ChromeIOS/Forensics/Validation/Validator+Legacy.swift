import SessionForensics
import SessionFormats
import SessionModel

/// Validation of legacy sessions (`Sessions/<id>/session.plist`).
///
/// Current Chrome reads a legacy window, repairs it (docs/chrome-ios-format.md, legacy format), and
/// migrates it to the optimized format, whose loading rules then apply: the list, group and history
/// rules run on the window too.
extension Validator {
    /// Checks one legacy session file.
    func validateLegacy(_ source: SessionSource, file: FileRead, window decoded: Result<LegacyWindow, FormatError>?) -> SessionResult {
        let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
        guard case .bytes(let bytes) = file, let decoded else {
            let reason = if case .unreadable(let error) = file { error.description } else { "missing" }
            return SessionResult(findings: [
                scope.finding(.legacyUnparsable, "cannot be read (\(reason)); Chrome loads the window empty")
            ])
        }
        guard BinaryPlistReader.looksLikeBinaryPlist(bytes) else {
            let magic = BinaryPlistReader.magic
            let bad = magic.indices.first { $0 >= bytes.count || bytes[$0] != magic[$0] }
            return SessionResult(findings: [
                scope.finding(
                    .legacyUnparsable, offset: bad,
                    "does not start with the binary property list magic \"bplist\"; Chrome loads the window empty")
            ])
        }
        let window: LegacyWindow
        switch decoded {
        case .success(let value): window = value
        case .failure(let error):
            return SessionResult(findings: [
                scope.finding(
                    .legacyUnparsable, offset: error.offset,
                    "\(error.reason); Chrome loads the window empty")
            ])
        }
        if let why = window.unreadableByChrome {
            return SessionResult(
                findings: [
                    scope.finding(
                        .legacyUnreadableByChrome, offset: window.offset,
                        "\(why); Chrome loads the window empty (sessionctl reads its \(window.tabs.count) tab\(plural(window.tabs.count)))")
                ],
                tabs: window.tabs.count)
        }
        let session = window.session(id: source.id, incognito: source.incognito)
        let layout = ListLayout(itemStarts: window.tabs.map(\.offset))
        let list = ListSubject(session: session, layout: layout, scope: scope)

        var findings = LegacyRules.check(window, scope: scope)
        findings += ListRules.duplicateTabIDs(list) + ListRules.openers(list) + ListRules.selfOpeners(list) + GroupRules.check(list)
        for (index, tab) in session.tabs.enumerated() {
            guard let history = tab.history else { continue }
            let reference = list.reference(index)
            let data = TabDataSubject(history: history, layout: TabDataLayout(), scope: scope, tab: reference, entry: nil)
            findings += EnumFindings.findings(EnumFindings.values(in: history), scanned: [], scope: scope, tab: reference)
            if let foreign = window.tabs[index].foreignEntry {
                findings.append(
                    scope.finding(
                        .legacyEntriesForeign, tab: reference, offset: window.tabs[index].offset,
                        "tab \(index)'s entries hold a \(foreign), not a navigation item; Chrome reads the tab with no entries and drops it"
                    ))
            } else if history.items.isEmpty {
                findings.append(
                    scope.finding(
                        .tabDataEmpty, tab: reference, offset: window.tabs[index].offset,
                        "tab \(index) has no entries; Chrome drops it when it saves the window"))
            }
            findings += HistoryRules.length(data) + HistoryRules.internalURLs(data)
        }
        return SessionResult(findings: findings, tabs: session.tabs.count)
    }
}

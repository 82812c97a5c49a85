import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// Validation of optimized sessions: `SessionStorage/<id>/` with session_metadata.pb and tab directories.
extension Validator {
    /// Checks one session directory's list and what lies in it, and names the restored tabs whose
    /// directories are to be checked next (`tabFindings`).
    func planOptimized(_ directory: SessionDirectoryRead) -> SessionPlan {
        let scope = FindingScope(session: directory.id, incognito: directory.incognito, file: directory.metadataPath)
        let lost = { () -> String in
            guard directory.walked else { return "Chrome loads the window empty" }
            let directories = directory.entries.filter(\.isTabDirectoryByName).count
            return "Chrome loads the window empty and deletes its \(directories) tab director\(directories == 1 ? "y" : "ies")"
        }
        // With the list lost Chrome deletes every entry; the tab directories are counted by the
        // finding about the list, the others (stray and temporary files, mis-named directories)
        // are reported on their own, as beside a list that loads.
        let besides = { () -> [Finding] in
            guard directory.walked else { return [] }
            return EntryRules.sessionEntries(
                directory.entries.filter { !$0.isTabDirectoryByName }, directory: directory.path, kept: [], listed: [:], scope: scope)
        }
        let bytes: [UInt8]
        switch directory.metadata {
        case .missing:
            return SessionPlan(
                SessionResult(
                    findings: [scope.finding(.metadataMissing, "there is no \(directory.metadataFileName); \(lost())")] + besides()))
        case .unreadable(let error):
            return SessionPlan(
                SessionResult(
                    findings: [scope.finding(.metadataUnparsable, "cannot be read (\(error.description)); \(lost())")] + besides()))
        case .bytes(let read):
            bytes = read
        }
        // Parsability is decided as Chrome's protobuf runtime decides it (a field of an unexpected
        // wire type, for one, is kept as an unknown field); the wire scanner names the bad byte.
        let session: Session
        switch directory.list {
        case .decoded(let decoded)?:
            session = decoded
        case .damaged(let error, let salvage)?:
            let tabs = salvage.value.tabs.count
            return SessionPlan(
                SessionResult(
                    findings: [
                        scope.finding(
                            .metadataUnparsable, offset: error.offset,
                            "\(error.reason); \(tabs) complete tab\(plural(tabs)) before the damage; \(lost())")
                    ] + besides()))
        case nil:
            return SessionPlan(SessionResult(findings: [scope.finding(.metadataUnparsable, "cannot be read; \(lost())")]))
        }
        let list = ListSubject(session: session, layout: ListLayout(bytes), scope: scope)
        let findings = ListRules.check(list) + GroupRules.check(list)
        guard directory.walked else { return SessionPlan(SessionResult(findings: findings, tabs: list.count)) }
        let (checks, entries) = directoryPlan(list, directory: directory)
        return SessionPlan(leading: findings, tabChecks: checks, entries: entries, tabs: list.count)
    }

    /// The restored tabs' directories to check (what was read there is looked up when they are
    /// checked), and what the other entries of the session directory are checked against.
    private func directoryPlan(
        _ list: ListSubject, directory: SessionDirectoryRead
    ) -> (checks: [TabCheck], entries: SessionPlan.EntryCheck) {
        var kept = Set<String>()
        var listed: [String: TabID] = [:]
        var checks: [TabCheck] = []
        for (index, tab) in list.session.tabs.enumerated() {
            let name = Tab.directoryName(for: tab.id)
            listed[name] = tab.id
            guard list.fate(index) == .kept else { continue }
            kept.insert(name)
            checks.append(
                TabCheck(
                    reference: list.reference(index),
                    entry: ListEntry(tab: tab, offsets: list.layout.item(index), scope: list.scope),
                    directory: joinPath(directory.path, name), read: nil))
        }
        return (checks, SessionPlan.EntryCheck(kept: kept, listed: listed, scope: list.scope))
    }

    /// The findings about one restored tab's directory: data.pb, state.pb and anything else in it.
    func tabFindings(_ check: TabCheck) -> [Finding] {
        let (tab, entry, directory) = (check.reference, check.entry, check.directory)
        let scope = entry.scope
        var label: String { "tab \(tab.index ?? 0) (#\(entry.tab.id))" }
        guard let read = check.read, let kind = read.kind else {
            return [
                scope.file(directory).finding(
                    .tabDirectoryMissing, tab: tab,
                    "\(label) has no directory \(lastComponent(directory)); \(Validator.missingDataOutcome)")
            ]
        }
        guard kind == .directory else {
            return [
                scope.file(directory).finding(
                    .tabDirectoryMissing, tab: tab,
                    "\(label)'s directory \(lastComponent(directory)) is not a directory; \(Validator.missingDataOutcome)")
            ]
        }
        var findings: [Finding] = []
        let dataPath = joinPath(directory, ProfileLayout.tabDataFile)
        let data = read.tab?.data ?? .missing
        if data == .missing {
            findings.append(
                scope.file(dataPath).finding(
                    .tabDataMissing, tab: tab,
                    "\(label) has no data.pb; \(Validator.missingDataOutcome)"))
        } else {
            findings += tabDataFindings(dataPath, data: data, history: read.tab?.history, tab: tab, entry: entry, scope: scope)
        }
        if let size = read.tab?.stateSize, size > ProfileLayout.maxStateSize {
            let statePath = joinPath(directory, ProfileLayout.tabStateFile)
            findings.append(
                scope.file(statePath).finding(
                    .stateTooLarge, tab: tab,
                    "state.pb is \(size) bytes, more than \(ProfileLayout.maxStateSize); Chrome reads it at any size, never writes one this large, and deletes it when the tab's next saved state is too"
                ))
        }
        findings += EntryRules.tabEntries(names: read.children, directory: directory, tab: tab, scope: scope)
        return findings
    }

    /// The findings about one data.pb: damage, out-of-range enums, then the history rules.
    func tabDataFindings(
        _ path: String, data: FileRead, history: Result<TabHistory, FormatError>?, tab: TabReference, entry: ListEntry?,
        scope: FindingScope
    ) -> [Finding] {
        let here = scope.file(path)
        guard case .bytes(let bytes) = data, let history else {
            let reason = if case .unreadable(let error) = data { error.description } else { "missing" }
            return [here.finding(.tabDataUnparsable, tab: tab, "cannot be read (\(reason)); the tab is dropped at the next save")]
        }
        let decoded: TabHistory
        switch history {
        case .success(let value): decoded = value
        case .failure(let error):
            return [
                here.finding(
                    .tabDataUnparsable, tab: tab, offset: error.offset,
                    "\(error.reason); the tab comes up without history and is dropped at the next save")
            ]
        }
        let layout = TabDataLayout(bytes)
        let enums = EnumFindings.values(in: decoded)
        let scanned = enums.isEmpty ? [] : ChromeProtoCodec.scanTabData(bytes).enumsOutOfRange
        var findings = EnumFindings.findings(enums, scanned: scanned, scope: here, tab: tab)
        findings += HistoryRules.check(TabDataSubject(history: decoded, layout: layout, scope: here, tab: tab, entry: entry))
        return findings
    }

    /// Checks a data.pb given alone: the file and its history, without a list to compare with.
    func validateTabDataFile(_ source: SessionSource, file: FileRead, history: Result<TabHistory, FormatError>?) -> SessionResult {
        let directory = pathComponents(source.path).dropLast().last ?? ""
        let tab = TabReference(index: nil, id: Tab.id(fromDirectoryName: directory))
        let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
        return SessionResult(
            findings: tabDataFindings(source.path, data: file, history: history, tab: tab, entry: nil, scope: scope), tabs: 1)
    }

    private func lastComponent(_ path: String) -> String {
        pathComponents(path).last ?? path
    }
}

extension Validator {
    /// What Chrome does with a window when a restored tab has no data.pb: it depends on the version.
    static let missingDataOutcome =
        "\(ChromeLoadSemantics.MissingTabData.windowLoadsEmpty.versions) load the whole window empty and delete every tab directory; "
        + "\(ChromeLoadSemantics.MissingTabData.tabRebuiltFromURL.versions) keep the tab and rebuild a one-page history from its listed URL when it is opened"
}

extension FormatError {
    /// The offset of the first bad byte, for `.damaged`.
    var offset: Int? {
        if case .damaged(_, let offset, _) = self { return offset }
        return nil
    }

    /// Why the input is bad, without the file name.
    var reason: String {
        switch self {
        case .damaged(_, _, let reason): return "damaged: \(reason)"
        case .notASession(_, let reason), .unreadable(_, let reason), .invalidDocument(_, let reason): return reason
        }
    }
}

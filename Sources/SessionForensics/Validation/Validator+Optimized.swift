import FileSystemKit
import SessionFormats
import SessionModel

/// Validation of optimized sessions: `SessionStorage/<id>/` with session_metadata.pb and tab directories.
extension Validator {
    /// Checks one session directory's list and what lies in it, and names the restored tabs whose
    /// directories are to be checked next (`tabFindings`).
    func planOptimized(_ source: SessionSource, in input: LocatedInput) -> SessionPlan {
        let tree = input.tree
        let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.metadataPath)
        // A metadata file given alone under another name says nothing about the directory around it.
        let checksDirectory = source.metadataFileName == ProfileLayout.metadataFile
        let lost = { () -> String in
            guard checksDirectory else { return "Chrome loads the window empty" }
            let directories = tree.list(source.path).filter { Tab.id(fromDirectoryName: $0) != nil }.count
            return "Chrome loads the window empty and deletes its \(directories) tab director\(directories == 1 ? "y" : "ies")"
        }
        guard tree.kind(of: source.metadataPath) != nil else {
            return SessionPlan(
                SessionResult(findings: [scope.finding(.metadataMissing, "there is no \(source.metadataFileName); \(lost())")]))
        }
        let bytes: [UInt8]
        do {
            bytes = try tree.read(source.metadataPath)
        } catch {
            return SessionPlan(
                SessionResult(findings: [scope.finding(.metadataUnparsable, "cannot be read (\(error.description)); \(lost())")]))
        }
        // Parsability is decided as Chrome's protobuf runtime decides it (a field of an unexpected
        // wire type, for one, is kept as an unknown field); the wire scanner names the bad byte.
        let session: Session
        do {
            session = try ChromeProtoCodec.decodeSessionMetadata(
                bytes, id: source.id, incognito: source.incognito, file: source.metadataPath)
        } catch {
            let salvage = ChromeProtoCodec.salvageSessionMetadata(bytes, id: source.id, incognito: source.incognito)
            let tabs = salvage.value.tabs.count
            return SessionPlan(
                SessionResult(findings: [
                    scope.finding(
                        .metadataUnparsable, offset: error.offset,
                        "\(error.reason); \(tabs) complete tab\(plural(tabs)) before the damage; \(lost())")
                ]))
        }
        let list = ListSubject(session: session, layout: ListLayout(bytes), scope: scope)
        let findings = ListRules.check(list) + GroupRules.check(list)
        guard checksDirectory else { return SessionPlan(SessionResult(findings: findings, tabs: list.count)) }
        let (checks, entries) = directoryPlan(list, source: source, tree: tree)
        return SessionPlan(leading: findings, tabChecks: checks, trailing: entries, tabs: list.count)
    }

    /// The restored tabs' directories to check, and the findings about the other entries of the session directory.
    private func directoryPlan(_ list: ListSubject, source: SessionSource, tree: ReadableTree) -> (checks: [TabCheck], entries: [Finding]) {
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
                    directory: joinPath(source.path, name)))
        }
        let entries = EntryRules.sessionEntries(
            tree: tree, directory: source.path, metadataFile: source.metadataFileName,
            kept: kept, listed: listed, scope: list.scope)
        return (checks, entries)
    }

    /// The findings about one restored tab's directory: data.pb, state.pb and anything else in it,
    /// and the history its data.pb holds when it decodes.
    func tabFindings(_ check: TabCheck, tree: ReadableTree) -> (findings: [Finding], history: TabHistory?) {
        let (tab, entry, directory) = (check.reference, check.entry, check.directory)
        let scope = entry.scope
        var label: String { "tab \(tab.index ?? 0) (#\(entry.tab.id))" }
        // The directory, its listing, data.pb and state.pb's size, read together.
        let snapshot = tree.snapshot(of: directory, reading: ProfileLayout.tabDataFile, measuring: ProfileLayout.tabStateFile)
        guard let kind = snapshot.kind else {
            return (
                [
                    scope.file(directory).finding(
                        .tabDirectoryMissing, tab: tab,
                        "\(label) has no directory \(lastComponent(directory)); \(Validator.missingDataOutcome)")
                ], nil
            )
        }
        guard kind == .directory else {
            return (
                [
                    scope.file(directory).finding(
                        .tabDirectoryMissing, tab: tab,
                        "\(label)'s directory \(lastComponent(directory)) is not a directory; \(Validator.missingDataOutcome)")
                ], nil
            )
        }
        var findings: [Finding] = []
        var history: TabHistory?
        let dataPath = joinPath(directory, ProfileLayout.tabDataFile)
        if let data = snapshot.file {
            let result = tabDataFindings(dataPath, read: data, tab: tab, entry: entry, scope: scope)
            findings += result.findings
            history = result.history
        } else {
            findings.append(
                scope.file(dataPath).finding(
                    .tabDataMissing, tab: tab,
                    "\(label) has no data.pb; \(Validator.missingDataOutcome)"))
        }
        if let size = snapshot.measuredSize, size > ProfileLayout.maxStateSize {
            let statePath = joinPath(directory, ProfileLayout.tabStateFile)
            findings.append(
                scope.file(statePath).finding(
                    .stateTooLarge, tab: tab,
                    "state.pb is \(size) bytes, more than \(ProfileLayout.maxStateSize); Chrome reads it at any size, never writes one this large, and deletes it when the tab's next saved state is too"
                ))
        }
        findings += EntryRules.tabEntries(names: snapshot.names, directory: directory, tab: tab, scope: scope)
        return (findings, history)
    }

    /// The findings about one data.pb: damage, out-of-range enums, then the history rules; and
    /// the history, when it decodes.
    func tabDataFindings(
        _ path: String, read: Result<[UInt8], FormatError>, tab: TabReference, entry: ListEntry?,
        scope: FindingScope
    ) -> (findings: [Finding], history: TabHistory?) {
        let here = scope.file(path)
        let bytes: [UInt8]
        switch read {
        case .success(let read): bytes = read
        case .failure(let error):
            return (
                [here.finding(.tabDataUnparsable, tab: tab, "cannot be read (\(error.description)); the tab is dropped at the next save")],
                nil
            )
        }
        let history: TabHistory
        do {
            history = try ChromeProtoCodec.decodeTabData(bytes, file: path)
        } catch {
            return (
                [
                    here.finding(
                        .tabDataUnparsable, tab: tab, offset: error.offset,
                        "\(error.reason); the tab comes up without history and is dropped at the next save")
                ], nil
            )
        }
        let layout = TabDataLayout(bytes)
        let enums = EnumFindings.values(in: history)
        let scanned = enums.isEmpty ? [] : ChromeProtoCodec.scanTabData(bytes).enumsOutOfRange
        var findings = EnumFindings.findings(enums, scanned: scanned, scope: here, tab: tab)
        findings += HistoryRules.check(TabDataSubject(history: history, layout: layout, scope: here, tab: tab, entry: entry))
        return (findings, history)
    }

    /// Checks a data.pb given alone: the file and its history, without a list to compare with.
    func validateTabDataFile(_ source: SessionSource, in input: LocatedInput) -> SessionResult {
        let directory = pathComponents(source.path).dropLast().last ?? ""
        let tab = TabReference(index: nil, id: Tab.id(fromDirectoryName: directory))
        let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
        let read: Result<[UInt8], FormatError>
        do throws(FormatError) { read = .success(try input.tree.read(source.path)) } catch { read = .failure(error) }
        return SessionResult(findings: tabDataFindings(source.path, read: read, tab: tab, entry: nil, scope: scope).findings, tabs: 1)
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

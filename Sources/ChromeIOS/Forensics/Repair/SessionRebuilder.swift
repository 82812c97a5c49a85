import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// Works out the repaired form of one session directory from a snapshot, saving every tab that
/// left a trace (a list entry or a tab directory), and records each step with the validate rule
/// it fixes.
///
/// - The list comes from session_metadata.pb; a damaged one gives its complete fields before the
///   damage, a missing one nothing, and then the tab directories it no longer lists are adopted
///   (ids from their names, metadata from their data.pb).
/// - Invalid and duplicate ids get fresh ones above the highest in use; a directory no tab lists
///   whose history matches such a tab becomes its directory. Mis-named directories are renamed.
/// - A tab whose data.pb is missing or unusable gets a one-item history rebuilt from its list entry.
/// - Histories, item metadata, the active index, pinned count, openers and groups are then
///   brought within what Chrome accepts (see the +History and +List extensions).
///
/// Nothing is ever deleted: whatever is not carried into the repaired directory stays in the
/// set-aside copy of the original, and a step says so.
struct SessionRebuilder {
    /// Where the list came from.
    enum ListSource: Equatable {
        case intact
        /// Damaged at `offset`: `tabs` complete tabs were salvaged; `hasActiveIndex` when the active index survived.
        case salvaged(offset: Int, reason: String, tabs: Int, hasActiveIndex: Bool)
        case missing
    }

    /// A tab on its way into the repaired list.
    struct Candidate {
        var tab: Tab
        /// Its index in the stored list; nil for a tab adopted from a directory.
        var storedIndex: Int?
        var directory: TabDirectoryRead?
        /// The data.pb bytes to write.
        var data: [UInt8] = []
        var state: [UInt8]?
        /// Whether its history was read back from its state.pb (data.pb gave none).
        var historyFromState = false
        var keep = true
        /// Position label for messages: `tab 2 (#10)`.
        var label: String
    }

    let snapshot: SessionDirectoryRead
    /// The positions in `snapshot.tabDirectories` of the directories whose names spell each id.
    private let directoriesByID: [TabID: [Int]]
    private(set) var log = RepairActionLog()
    /// The directories no listed tab owns, indexed by their pages once a tab needs one.
    private var orphans: OrphanIndex?
    /// Histories of unowned directories decoded to match them with tabs given fresh ids.
    var orphanHistoriesRead: Int { orphans?.historiesRead ?? 0 }
    /// The steps recorded (at most `FindingCap.limit` of one rule listed, the rest counted).
    var actions: [RepairAction] { log.actions }
    var metadataPath: String { joinPath(snapshot.path, ProfileLayout.metadataFile) }

    /// The rules of validate's findings about this session, by file.
    private let reported: [String: [Rule]]
    /// validate's findings about listed tabs, as `rule#index`.
    private let reportedTabs: Set<String>

    /// A rebuilder of `snapshot`; `findings` are validate's about this session, whose rules the
    /// steps on entries cite (none: each step cites the rule the rebuilder sees).
    init(snapshot: SessionDirectoryRead, findings: [Finding] = []) {
        self.snapshot = snapshot
        var reported: [String: [Rule]] = [:]
        for finding in findings { reported[finding.file, default: []].append(finding.rule) }
        self.reported = reported
        reportedTabs = Set(findings.compactMap { finding in finding.tab?.index.map { "\(finding.rule.name)#\($0)" } })
        directoriesByID = Dictionary(grouping: snapshot.tabDirectories.indices) { snapshot.tabDirectories[$0].id }
    }

    /// The rule a step on the entry `file` cites: the rule of validate's finding about it (`seen`
    /// when that is one of them), else the finding about the list when the list is lost (it
    /// covers every entry: Chrome deletes them all), else `seen`.
    func cited(_ seen: Rule, file: String, source: ListSource) -> Rule {
        guard !reported.isEmpty else { return seen }
        let rules = reported[file] ?? []
        if rules.contains(seen) { return seen }
        if let first = rules.first { return first }
        switch source {
        case .intact: return seen
        case .missing: return .metadataMissing
        case .salvaged: return .metadataUnparsable
        }
    }

    /// The rule a step on listed tab `tab` cites: `seen` when validate reported it for that tab (or
    /// when no findings were given), else the rule of the step it follows from, if any.
    func cited(_ seen: Rule, tab: Int?, following: Rule?) -> Rule {
        guard !reported.isEmpty, let tab, !reportedTabs.contains("\(seen.name)#\(tab)") else { return seen }
        return following ?? seen
    }

    /// Records a step.
    mutating func record(_ rule: Rule, file: String, _ action: String, because reason: String) {
        log.append(
            RepairAction(
                rule: rule, session: snapshot.id, incognito: snapshot.incognito,
                file: file, action: action, reason: reason))
    }

    /// Records `count` steps of `rule` in a row; `make(k)` gives the k-th one's file, action and
    /// reason, and is called only for the steps listed and the last one.
    mutating func record(_ rule: Rule, count: Int, _ make: (Int) -> (file: String, action: String, reason: String)) {
        let (id, incognito) = (snapshot.id, snapshot.incognito)
        log.append(rule, count: count) { k in
            let (file, action, reason) = make(k)
            return RepairAction(rule: rule, session: id, incognito: incognito, file: file, action: action, reason: reason)
        }
    }

    /// The path of a tab directory (or of something inside it).
    func path(_ parts: String...) -> String {
        parts.reduce(snapshot.path) { joinPath($0, $1) }
    }

    /// Works out the repaired session.
    mutating func rebuild() -> RepairedSession {
        let (stored, source) = readList()
        let assigned = assignListedTabs(stored)
        var candidates = assigned.candidates
        var nameless = assigned.nameless
        let listed = candidates.count
        let firstAdoption = log.count
        let claimed = Set(candidates.compactMap { $0.directory?.name })
        // As validate counts tab directories: those named as Chrome names a tab's.
        let unlisted = snapshot.entries.count { $0.isTabDirectoryByName && !claimed.contains($0.name) }
        candidates += adoptDirectories(
            source: source, claimed: claimed,
            used: Set(candidates.map(\.tab.id)).union(stored.tabs.lazy.map(\.id)),
            fresh: assigned.fresh)
        describeListSource(source, adopted: candidates.count - listed, unlisted: unlisted)
        if log.count > firstAdoption, let last = log.listed.last, last.file == metadataPath {
            // The step that says how the list is rebuilt comes before the tabs it adopts.
            log.moveLast(to: firstAdoption)
        }
        // The entries that name no tab are left out where they stand among the listed tabs.
        for index in candidates.indices {
            let position = candidates[index].storedIndex ?? stored.tabs.count
            while let run = nameless.first, run.start < position {
                recordLeftOut(run, stored: stored)
                nameless.removeFirst()
            }
            resolveHistory(&candidates[index])
        }
        for run in nameless { recordLeftOut(run, stored: stored) }
        setAsideOtherEntries(source: source)
        let session = normalizeList(stored: stored, source: source, candidates: candidates)
        var metadata = ChromeProtoCodec.encodeSessionMetadata(session)
        // An intact list is `stored`, the decoding of the original bytes.
        if source == .intact, let original = snapshot.metadata.bytes, stored == session {
            metadata = original
        }
        let tabs = Array(
            candidates.lazy.filter(\.keep).map {
                RepairedSession.TabFiles(directory: Tab.directoryName(for: $0.tab.id), data: $0.data, state: $0.state)
            })
        candidates = []
        return RepairedSession(session: session, stored: stored, metadata: metadata, tabs: tabs)
    }

    /// The stored list: decoded, salvaged up to the damage, or empty when the file is missing.
    private func readList() -> (Session, ListSource) {
        let empty = Session(id: snapshot.id, incognito: snapshot.incognito)
        switch snapshot.metadata {
        case .missing:
            return (empty, .missing)
        case .unreadable(let error):
            return (empty, .salvaged(offset: 0, reason: error.description, tabs: 0, hasActiveIndex: false))
        case .bytes(let bytes):
            switch snapshot.list {
            case .decoded(let session)?:
                return (session, .intact)
            case .damaged(let error, let salvage)?:
                let layout = ListLayout(Array(bytes[0..<salvage.validPrefix]))
                return (
                    salvage.value,
                    .salvaged(
                        offset: error.offset ?? salvage.validPrefix, reason: error.reason,
                        tabs: salvage.value.tabs.count, hasActiveIndex: layout.activeIndex != nil)
                )
            case nil:
                return (empty, .salvaged(offset: 0, reason: "not decoded", tabs: 0, hasActiveIndex: false))
            }
        }
    }

    /// The listed tabs with their final ids and directories; the entries that name no tab, given
    /// fresh ids, as runs; and the fresh ids given, all in one range above the highest in use.
    private mutating func assignListedTabs(
        _ stored: Session
    ) -> (candidates: [Candidate], nameless: ArraySlice<NamelessRun>, fresh: ClosedRange<TabID>?) {
        let validListed = Set(stored.tabs.map(\.id).filter { $0 > 0 })
        var highest = max(validListed.max() ?? 0, snapshot.tabDirectories.map(\.id).max() ?? 0)
        let highestInUse = highest
        var used = Set<TabID>()
        var claimed = Set<String>()
        var candidates: [Candidate] = []
        var nameless: [NamelessRun] = []
        // The first listed position of each valid id, for the steps that name it.
        var firstListed: [TabID: Int] = [:]
        for (index, tab) in stored.tabs.enumerated() where tab.hasValidID && firstListed[tab.id] == nil { firstListed[tab.id] = index }
        // The tabs Chrome drops for an id a tab it keeps has (validate's `tab-id-duplicate`). A tab
        // dropped for its count of 0 claims no id in Chrome, but repair keeps it, with the id.
        // Worked out at the first tab that shares an id (a list of millions of entries has none).
        var duplicates: Set<Int>?
        func droppedAsDuplicate(_ index: Int) -> Bool {
            if duplicates == nil {
                duplicates = Set(ChromeLoadSemantics.droppedTabs(stored).lazy.filter { $0.reason == .duplicateID }.map(\.index))
            }
            return duplicates?.contains(index) ?? false
        }
        for (index, listedTab) in stored.tabs.enumerated() {
            if !listedTab.namesATab, highest < Int32.max {
                // Given the next fresh id, joining the run of the entry before it when that one is nameless too.
                highest += 1
                if let last = nameless.last, last.end == index {
                    nameless[nameless.count - 1].count += 1
                } else {
                    nameless.append(NamelessRun(start: index, firstID: highest, count: 1))
                }
                continue
            }
            if let last = nameless.last, last.end == index { recordFreshIDs(last, stored: stored) }
            var tab = listedTab
            var directory: TabDirectoryRead?
            let label = "tab \(index) (#\(tab.id))"
            if tab.hasValidID, !used.contains(tab.id) {
                directory = directories(of: tab.id).first { !claimed.contains($0.name) }
                if let found = directory, !found.isCanonical {
                    record(
                        .tabDirectoryNameInvalid, file: path(found.name),
                        "use \(found.name)/ as the directory of \(label), written as \(Tab.directoryName(for: tab.id))/",
                        because:
                            "Chrome names tab directories with 8 lower-case hex digits and would delete this one with the tab's history")
                }
            } else {
                let original = tab.id
                // The finding validate makes of this tab: an invalid id, a duplicate Chrome drops, or
                // (the other of two tabs with one id being dropped for its count of 0) no history.
                let rule: Rule =
                    !tab.hasValidID ? .tabIDInvalid : droppedAsDuplicate(index) ? .tabIDDuplicate : .tabNoHistory
                guard highest < Int32.max else {
                    record(
                        rule, file: metadataPath,
                        "leave \(label) out of the list", because: "no tab id above \(highest) is left to give it")
                    continue
                }
                highest += 1
                tab.id = highest
                if original > 0 {
                    let first = firstListed[original] ?? 0
                    if rule == .tabIDDuplicate {
                        record(
                            rule, file: metadataPath, "give \(label) the new id \(tab.id)",
                            because: "tab \(first) has the same id; Chrome would drop this one")
                    } else {
                        // A count of 0 made Chrome drop one of the two, this one or the first.
                        record(
                            rule, file: metadataPath, "give \(label) the new id \(tab.id)",
                            because: listedTab.navigationItemCount == 0
                                ? "tab \(first) has the same id; Chrome drops this one for its count of 0"
                                : "tab \(first) has the same id, which repair leaves to it; Chrome drops tab \(first) for its count of 0 and would give this tab its directory"
                        )
                    }
                } else {
                    record(
                        .tabIDInvalid, file: metadataPath, "give \(label) the new id \(tab.id)",
                        because: "an id that is not positive makes Chrome load the whole window empty and delete its tabs")
                }
                directory = orphanMatching(tab, listed: validListed)
                if let found = directory {
                    record(
                        .unreferencedEntry, file: path(found.name),
                        "use \(found.name)/ as the directory of \(label), written as \(Tab.directoryName(for: tab.id))/",
                        because: "no listed tab refers to it and its history is the one \(label)'s list entry describes")
                }
            }
            if let directory { claimed.insert(directory.name) }
            used.insert(tab.id)
            candidates.append(Candidate(tab: tab, storedIndex: index, directory: directory, label: label))
        }
        if let last = nameless.last, last.end == stored.tabs.count { recordFreshIDs(last, stored: stored) }
        return (candidates, nameless[...], highest > highestInUse ? (highestInUse + 1)...highest : nil)
    }

    /// The tab directories whose names spell `id`, the canonical one first.
    private func directories(of id: TabID) -> [TabDirectoryRead] {
        (directoriesByID[id] ?? []).map { snapshot.tabDirectories[$0] }.sorted { $0.isCanonical && !$1.isCanonical }
    }

    /// A directory no listed tab owns (nor an earlier match) whose history is the one `tab`'s
    /// list entry describes (see `OrphanIndex`).
    private mutating func orphanMatching(_ tab: Tab, listed: Set<TabID>) -> TabDirectoryRead? {
        guard !tab.url.isEmpty || !tab.title.isEmpty else { return nil }
        if orphans == nil { orphans = OrphanIndex(snapshot.tabDirectories, listed: listed) }
        return orphans?.take(url: tab.url, title: tab.title).map { snapshot.tabDirectories[$0] }
    }

    /// The tab directories the list does not claim: adopted as tabs when the list is damaged or
    /// missing (and they hold a usable history), else left in the set-aside copy.
    private mutating func adoptDirectories(
        source: ListSource, claimed: Set<String>, used: Set<TabID>, fresh: ClosedRange<TabID>?
    ) -> [Candidate] {
        var highest = max(used.max() ?? 0, fresh?.upperBound ?? 0, snapshot.tabDirectories.map(\.id).max() ?? 0)
        var used = used
        var adopted: [Candidate] = []
        let orphans = snapshot.tabDirectories.filter { !claimed.contains($0.name) }
            .sorted { ($0.id, $0.isCanonical ? 0 : 1, $0.name) < ($1.id, $1.isCanonical ? 0 : 1, $1.name) }
        for directory in orphans {
            if source != .intact, let usable = SessionRebuilder.usableHistory(directory) {
                var id = directory.id
                if used.contains(id) || fresh?.contains(id) == true {
                    guard highest < Int32.max else { continue }
                    highest += 1
                    id = highest
                }
                used.insert(id)
                var tab = Tab.summarising(usable.history, id: id)
                tab.history = nil
                if case .bytes(let bytes) = directory.data, let embedded = ChromeProtoCodec.embeddedMetadata(inTabData: bytes) {
                    if !embedded.creation.isNull { tab.creationTime = embedded.creation }
                    if !embedded.lastActive.isNull { tab.lastActiveTime = embedded.lastActive }
                }
                let rule: Rule = source == .missing ? .metadataMissing : .metadataUnparsable
                record(
                    rule, file: path(directory.name),
                    "add the tab of \(directory.name)/ to the list as #\(id): \(usable.history.items.count) item\(plural(usable.history.items.count)), \(quoted(tab.url))",
                    because:
                        "session_metadata.pb \(source == .missing ? "is missing" : "is damaged and no longer lists it"); its data.pb \(usable.damage == nil ? "is intact" : "holds complete items")"
                )
                adopted.append(Candidate(tab: tab, storedIndex: nil, directory: directory, label: "tab #\(id) from \(directory.name)/"))
            } else {
                let seen = EntryRules.unlistedEntryRule(
                    directory.name, isDirectory: true,
                    isEmpty: directory.data == .missing && directory.stateSize == nil && directory.others.isEmpty)
                let rule = cited(seen, file: path(directory.name), source: source)
                let why =
                    source == .intact
                    ? "no listed tab refers to it; Chrome would delete it"
                    : "it holds no usable history; Chrome would delete it"
                record(rule, file: path(directory.name), "leave \(directory.name)/ in the set-aside copy", because: why)
            }
        }
        return adopted
    }

    /// The step that says how the list itself is rebuilt, when it is.
    ///
    /// `unlisted`: the directories named as tab directories that no salvaged list entry claims.
    private mutating func describeListSource(_ source: ListSource, adopted: Int, unlisted: Int) {
        switch source {
        case .intact:
            return
        case .missing:
            record(
                .metadataMissing, file: metadataPath,
                "write session_metadata.pb listing the \(adopted) tab\(plural(adopted)) rebuilt from the tab directories",
                because: "it is missing: Chrome would load the window empty and delete every tab directory")
        case .salvaged(let offset, let reason, let tabs, _):
            let of = unlisted > adopted ? " of the \(unlisted)" : ""
            record(
                .metadataUnparsable, file: metadataPath,
                "rewrite session_metadata.pb from its \(tabs) complete tab\(plural(tabs)) before byte \(offset) and \(adopted)\(of) tab director\(adopted == 1 && of.isEmpty ? "y" : "ies") it no longer lists",
                because: "\(reason): Chrome would load the window empty and delete every tab directory")
        }
    }

    /// The other entries of the session directory (stray and temporary files, directories that are not a tab's).
    private mutating func setAsideOtherEntries(source: ListSource) {
        for entry in snapshot.others {
            let seen = EntryRules.unlistedEntryRule(entry.name, isDirectory: entry.kind == .directory, isEmpty: entry.children.isEmpty)
            let rule = cited(seen, file: path(entry.name), source: source)
            record(
                rule, file: path(entry.name), "leave \(entry.name)\((entry.kind == .directory) ? "/" : "") in the set-aside copy",
                because: "it is not part of Chrome's layout; Chrome would delete it")
        }
    }

    /// Text in quotes, shortened past 100 characters.
    func quoted(_ text: String) -> String {
        "\"" + (text.count > 100 ? String(text.prefix(100)) + "…" : text) + "\""
    }
}

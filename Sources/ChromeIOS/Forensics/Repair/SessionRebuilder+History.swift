import SessionForensics
import SessionFormats
import SessionModel

/// How each tab's history is worked out: read from data.pb, salvaged up to its damage, or rebuilt
/// from the list entry; then brought within what Chrome accepts, and the list entry re-derived from it.
extension SessionRebuilder {
    /// Works out a candidate's history, data.pb bytes, state.pb and list entry.
    mutating func resolveHistory(_ candidate: inout Candidate) {
        let directory = candidate.directory
        let directoryName = directory?.name ?? Tab.directoryName(for: candidate.tab.id)
        let dataPath = path(directoryName, ProfileLayout.tabDataFile)
        var original: (history: TabHistory, bytes: [UInt8])?
        var history: TabHistory
        var changedBy: Rule?
        switch directory?.data {
        case nil:
            guard let rebuilt = rebuiltHistory(&candidate, .tabDirectoryMissing, file: path(directoryName), why: "it has no directory")
            else { return }
            history = rebuilt
            changedBy = .tabDirectoryMissing
        case .missing?:
            guard let rebuilt = rebuiltHistory(&candidate, .tabDataMissing, file: dataPath, why: "its directory has no data.pb") else {
                return
            }
            history = rebuilt
            changedBy = .tabDataMissing
        case .unreadable(let error)?:
            guard
                let rebuilt = rebuiltHistory(
                    &candidate, .tabDataUnparsable, file: dataPath, why: "data.pb cannot be read (\(error.description))")
            else { return }
            history = rebuilt
            changedBy = .tabDataUnparsable
        case .bytes(let bytes)?:
            do throws(FormatError) {
                let decoded = try (directory?.history ?? TabDirectoryRead.decode(bytes, file: dataPath)).get()
                if decoded.items.isEmpty {
                    guard let rebuilt = rebuiltHistory(&candidate, .tabDataEmpty, file: dataPath, why: "data.pb holds no navigation items")
                    else { return }
                    history = rebuilt
                    changedBy = .tabDataEmpty
                } else {
                    history = decoded
                    original = (decoded, bytes)
                }
            } catch {
                let salvage = TabDataSalvage.salvage(bytes) ?? (TabHistory(), 0)
                let offset = error.offset ?? salvage.damage
                if salvage.history.items.isEmpty {
                    guard
                        let rebuilt = rebuiltHistory(
                            &candidate, .tabDataUnparsable, file: dataPath,
                            why: "data.pb is damaged at byte \(offset) with no complete navigation item before it")
                    else { return }
                    history = rebuilt
                    changedBy = .tabDataUnparsable
                } else {
                    history = salvage.history
                    changedBy = .tabDataUnparsable
                    let count = history.items.count
                    record(
                        .tabDataUnparsable, file: dataPath,
                        "keep the \(count) complete navigation item\(plural(count)) of \(candidate.label) before byte \(offset)",
                        because: "\(error.reason): Chrome would drop the tab at its next save")
                }
            }
        }
        let fromState = candidate.historyFromState
        let normalized = normalize(&history, label: candidate.label, file: dataPath)
        changedBy = normalized ?? changedBy
        deriveListEntry(&candidate, from: history, changedBy: changedBy)
        let unchanged = original.map { $0.history == history } ?? false
        candidate.data = unchanged ? (original?.bytes ?? []) : ChromeProtoCodec.encodeTabData(history)
        // A history read back from state.pb still matches it unless it had to be brought within Chrome's limits.
        let stateMatches = unchanged || (fromState && normalized == nil)
        if let directory { carryState(&candidate, directory: directory, unchanged: stateMatches, changedBy: changedBy) }
    }

    /// The history of a tab whose data.pb gives none: the back/forward list of its state.pb when
    /// that is WebKit's session state with entries (each item stamped with the entry's time), else
    /// a one-item history made from the list entry (URL, title, time); nil when the entry has
    /// neither URL nor title and the tab is left out.
    private mutating func rebuiltHistory(_ candidate: inout Candidate, _ rule: Rule, file: String, why: String) -> TabHistory? {
        let tab = candidate.tab
        let time = tab.lastActiveTime.isNull ? tab.creationTime : tab.lastActiveTime
        if let directory = candidate.directory, let bytes = directory.state,
            let state = try? WebKitSessionState.decode(bytes, file: path(directory.name, ProfileLayout.tabStateFile)),
            let current = state.currentIndex
        {
            let count = state.entries.count
            record(
                rule, file: file,
                "rebuild \(candidate.label)'s history from its state.pb: \(count) item\(plural(count)), the current one \(quoted(state.entries[current].url))",
                because: "\(why), and state.pb, WebKit's own record of the tab's web view, holds its back/forward list")
            candidate.historyFromState = true
            var history = state.history(time: time)
            history.hasOpener = tab.opener != nil
            return history
        }
        guard !tab.url.isEmpty || !tab.title.isEmpty else {
            candidate.keep = false
            record(
                rule, file: file, "leave \(candidate.label) out of the list",
                because: "\(why) and its list entry has neither URL nor title: nothing of it is left to save")
            return nil
        }
        let url = tab.url.isEmpty ? "about:blank" : tab.url
        record(
            rule, file: file, "rebuild a one-item history for \(candidate.label) from its list entry: \(quoted(url))",
            because: "\(why): Chrome would show the tab without history and drop it at its next save")
        return TabHistory(
            hasOpener: tab.opener != nil, userAgent: .automatic, lastCommittedIndex: 0,
            items: [NavigationItem(url: url, title: tab.title, timestamp: time, userAgent: .automatic)])
    }

    /// Brings a history within what Chrome accepts; returns the rule of the last change made, if any.
    private mutating func normalize(_ history: inout TabHistory, label: String, file: String) -> Rule? {
        var changedBy: Rule?
        func change(_ rule: Rule, _ action: String, _ reason: String) {
            changedBy = rule
            record(rule, file: file, action, because: reason)
        }
        // Each change is made where validate's check of its rule (`EnumFindings`, `HistoryRules`) finds it.
        for value in EnumFindings.values(in: history) {
            let crashes = "Chrome crashes on a user agent outside 0-3 when the tab is opened"
            switch value.place {
            case .userAgent:
                change(.enumOutOfRange, "set \(label)'s user agent to automatic (was \(value.value))", crashes)
                history.userAgent = .automatic
            case .itemUserAgent(let index):
                change(.enumOutOfRange, "set item \(index)'s user agent in \(label) to automatic (was \(value.value))", crashes)
                history.items[index].userAgent = .automatic
            case .referrerPolicy(let index):
                change(
                    .enumOutOfRange, "set item \(index)'s referrer policy in \(label) to default (was \(value.value))",
                    "Chrome crashes on a referrer policy outside 0-8 when the tab is opened")
                history.items[index].referrer?.policy = .default
            }
        }
        let count = history.items.count
        if let rule = HistoryRules.lastCommittedRule(history) {
            let lci = Int(history.lastCommittedIndex)
            let why =
                rule == .lastCommittedOutOfRange
                ? "it is past the \(count) item\(plural(count)), where Chrome would read beyond the history when the tab is opened"
                : "below -1 Chrome would open the tab with no page and no back history"
            change(
                rule, "set \(label)'s last committed item index to \(count - 1) (was \(lci))",
                why + "; the last item is the page the tab was on")
            history.lastCommittedIndex = Int32(count - 1)
        }
        if let kept = ChromeSaveSemantics.keptItems(history) {
            change(
                .historyTooLong,
                "keep items \(kept.lowerBound)..<\(kept.upperBound) of \(label)'s \(count), around the last committed item, as Chrome would",
                "Chrome keeps at most \(kept.count) navigation items; the others stay in the set-aside copy")
            history = ChromeSaveSemantics.storedHistory(history)
        }
        for (index, _) in HistoryRules.wrappers(in: history) {
            let item = history.items[index]
            let url = SessionRebuilder.unwrapped(item.url)
            var virtual = SessionRebuilder.unwrapped(item.virtualURL)
            if virtual == url { virtual = "" }
            guard url != item.url || virtual != item.virtualURL else { continue }
            let wrapper = url != item.url ? item.url : item.virtualURL
            change(
                .internalURL,
                "replace item \(index) of \(label), \(quoted(wrapper)), with the page it wraps, \(quoted(virtual.isEmpty ? url : virtual))",
                "an internal://local/ wrapper only loads in the launch that made it")
            history.items[index].url = url
            history.items[index].virtualURL = virtual
        }
        return changedBy
    }

    /// A directory's history when it holds at least one item: decoded, or salvaged up to the damage.
    static func usableHistory(_ directory: TabDirectoryRead) -> (history: TabHistory, damage: Int?)? {
        guard case .bytes(let bytes) = directory.data else { return nil }
        if let history = directory.decodedHistory {
            return history.items.isEmpty ? nil : (history, nil)
        }
        guard let salvage = TabDataSalvage.salvage(bytes) else { return nil }
        return salvage.history.items.isEmpty ? nil : (salvage.history, salvage.damage)
    }

    /// The real page behind session-restore and error-page wrappers, however deeply nested.
    static func unwrapped(_ url: String) -> String {
        var current = url
        for _ in 0..<8 {
            let next = HistoryRestore.unwrapPersisted(current)
            if next != current {
                current = next
                continue
            }
            guard let wrapper = InternalURL(current), let real = wrapper.wrapped, real != current else { break }
            current = real
        }
        return current
    }

    /// Re-derives the list entry's item count and active page from the history, as Chrome does when it saves.
    ///
    /// A change that follows from a step on the history (`changedBy`: a history rebuilt, salvaged or
    /// shortened) cites that step's rule, unless validate reported the entry's own mismatch.
    private mutating func deriveListEntry(_ candidate: inout Candidate, from history: TabHistory, changedBy: Rule?) {
        let listed = candidate.storedIndex != nil
        let count = Int32(clamping: history.items.count)
        if HistoryRules.itemCountDiffers(candidate.tab, history) {
            let was = candidate.tab.navigationItemCount
            if listed {
                record(
                    cited(was == 0 ? .tabNoHistory : .itemCountMismatch, tab: candidate.storedIndex, following: changedBy),
                    file: metadataPath,
                    "set \(candidate.label)'s navigation item count to \(count) (was \(was))",
                    because: was == 0 ? "Chrome drops a tab whose count is 0 and deletes its directory" : "its history holds \(count)")
            }
            candidate.tab.navigationItemCount = count
        }
        guard let item = history.lastCommittedItem else { return }
        var changes: [String] = []
        let differs = HistoryRules.activePageDiffers(candidate.tab, item)
        if differs.url {
            changes.append("URL \(quoted(item.displayURL))")
            candidate.tab.url = item.displayURL
        }
        if differs.title {
            changes.append("title \(quoted(item.title))")
            candidate.tab.title = item.title
        }
        if listed, !changes.isEmpty {
            record(
                cited(.activePageMismatch, tab: candidate.storedIndex, following: changedBy), file: metadataPath,
                "show \(candidate.label)'s last committed item in the list: \(changes.joined(separator: " and "))",
                because: "the list showed another page than the history's last committed item")
        }
    }

    /// Carries state.pb over when it still matches the history (Chrome reads it at any size); says
    /// why not otherwise. Other entries of the tab directory stay in the set-aside copy.
    private mutating func carryState(
        _ candidate: inout Candidate, directory: TabDirectoryRead, unchanged: Bool, changedBy: Rule?
    ) {
        let statePath = path(directory.name, ProfileLayout.tabStateFile)
        if directory.stateSize != nil {
            if unchanged, let state = directory.state {
                candidate.state = state
            } else {
                record(
                    changedBy ?? .stateTooLarge, file: statePath, "leave \(candidate.label)'s state.pb in the set-aside copy",
                    because: unchanged
                        ? "it cannot be read"
                        : "it no longer matches the repaired history; Chrome rebuilds the page state from the navigation items")
            }
        }
        for name in directory.others {
            let rule: Rule = name == ProfileLayout.transitionalTabMetadataFile ? .transitionalMetadata : .tabDirectoryExtra
            record(
                rule, file: path(directory.name, name), "leave \(directory.name)/\(name) in the set-aside copy",
                because: rule == .transitionalMetadata
                    ? "Chrome no longer reads the 2023 layout's metadata.pb; repair writes a tab directory's data.pb and state.pb only"
                    : "it is not part of a tab directory (Chrome ignores it); repair writes a tab directory's data.pb and state.pb only")
        }
    }
}

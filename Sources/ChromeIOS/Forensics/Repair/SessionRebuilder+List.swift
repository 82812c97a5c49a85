import Archive
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// How the repaired list is put together: tabs re-indexed, then the active index, pinned count,
/// openers and groups brought within what Chrome accepts, keeping as much as can be kept.
extension SessionRebuilder {
    /// The repaired list of the kept candidates: the stored tabs left out are removed as Chrome
    /// removes tabs (`ChromeLoadSemantics.filterItems`: active tab re-chosen, pinned count,
    /// openers), then what Chrome would ignore or stop on is brought within range.
    mutating func normalizeList(stored: Session, source: ListSource, candidates: [Candidate]) -> Session {
        let kept = candidates.filter(\.keep)
        let storedCount = stored.tabs.count
        var newIndex = [Int?](repeating: nil, count: storedCount)
        for (position, candidate) in kept.enumerated() {
            if let index = candidate.storedIndex { newIndex[index] = position }
        }
        // An array built here: a lazy filter handed to another module is walked through generic
        // code, element by element (a third of a dry run's time on a list of millions of entries).
        var left: [Int] = []
        for index in newIndex.indices where newIndex[index] == nil { left.append(index) }
        let removed = RemovedIndexes(ascending: left)
        let filtered = ChromeLoadSemantics.filterItems(stored, removing: removed)
        var tabs = kept.map(\.tab)
        let active = activeIndex(stored: stored, filtered: filtered, source: source, tabs: tabs)

        let storedPinned = Int(stored.pinnedCount)
        let keptStored = filtered.tabs.count
        var pinned = max(0, min(Int(filtered.pinnedCount), keptStored))
        if ListRules.pinnedCountOutOfRange(stored) {
            // Groups never start among the pinned tabs: an out-of-range count pins no grouped tab.
            let firstGrouped =
                stored.groups.compactMap { group -> Int? in
                    let start = Int(max(group.start, 0))
                    return newIndex.indices.contains(start) ? newIndex[start...].lazy.compactMap { $0 }.first : nil
                }.min() ?? keptStored
            pinned = min(pinned, firstGrouped)
            record(
                .pinnedCountOutOfRange, file: metadataPath, "set the pinned count to \(pinned) (was \(storedPinned))",
                because: "it is outside the \(storedCount) listed tab\(plural(storedCount)); no tab of a group is pinned")
        }
        for index in tabs.indices {
            tabs[index].pinned = index < pinned
            guard tabs[index].opener != nil else { continue }
            let opener = index < filtered.tabs.count ? filtered.tabs[index].opener : nil
            tabs[index].opener = opener
            guard let opener else { continue }
            // Openers index the listed tabs kept (those adopted from directories come after them):
            // the test Chrome makes of them as it restores the window.
            switch ChromeLoadSemantics.openerProblem(opener, of: index, tabs: keptStored) {
            case .outOfRange:
                tabs[index].opener = nil
                record(
                    .openerOutOfRange, file: metadataPath, "clear \(kept[index].label)'s opener (index \(opener.index))",
                    because: "it points outside the \(storedCount) listed tab\(plural(storedCount)); Chrome ignores it")
            case .itself:
                tabs[index].opener = nil
                record(
                    .openerSelf, file: metadataPath, "clear \(kept[index].label)'s opener",
                    because: "the tab is its own opener; current Chrome stops on a CHECK when it restores the window")
            case nil:
                break
            }
        }
        let groups = normalizeGroups(stored: stored, newIndex: newIndex, pinned: pinned)
        return Session(
            id: snapshot.id, incognito: snapshot.incognito, format: .optimized, activeIndex: active,
            pinnedCount: Int32(pinned), tabs: tabs, groups: groups, unknownFields: stored.unknownFields)
    }

    /// The active index: the tab Chrome activates once the left-out tabs are removed; the most
    /// recently active tab when the list was lost, or when the stored index points at no tab.
    private mutating func activeIndex(stored: Session, filtered: Session, source: ListSource, tabs: [Tab]) -> Int32 {
        guard !tabs.isEmpty else { return -1 }
        let mostRecent = Int32(tabs.indices.max { (tabs[$0].lastActiveTime, $0) < (tabs[$1].lastActiveTime, $1) } ?? 0)
        let storedActive = Int(stored.activeIndex)
        switch source {
        case .missing, .salvaged(_, _, _, false):
            return mostRecent
        case .intact, .salvaged:
            if storedActive == -1 { return -1 }
            if !ListRules.activeIndexOutOfRange(stored) {
                let chosen = Int(filtered.activeIndex)
                return (0..<filtered.tabs.count).contains(chosen) ? Int32(chosen) : mostRecent
            }
            record(
                .activeIndexOutOfRange, file: metadataPath,
                "activate tab \(mostRecent), the most recently active (the active index was \(storedActive))",
                because: "it is outside the \(stored.tabs.count) listed tab\(plural(stored.tabs.count)); Chrome would activate no tab")
            return mostRecent
        }
    }

    /// The groups: ranges re-indexed and clamped to the unpinned tabs (a group left with no tab is
    /// removed), colours within range, missing, zero and repeated ids replaced by fresh ones.
    private mutating func normalizeGroups(stored: Session, newIndex: [Int?], pinned: Int) -> [TabGroup] {
        let storedPinned = max(0, min(Int(stored.pinnedCount), stored.tabs.count))
        var used = Set(stored.groups.compactMap(\.id).filter { !$0.isZero })
        var seen = Set<TabGroupID>()
        var groups: [TabGroup] = []
        for (number, storedGroup) in stored.groups.enumerated() {
            var group = storedGroup
            let name = "group \(number) \(storedGroup.title.isEmpty ? "(untitled)" : quoted(storedGroup.title))"
            let start = Int64(group.start)
            let end = Int64(group.start) + Int64(group.count)
            let lower = Int(max(start, 0))
            let upper = Int(min(max(end, 0), Int64(newIndex.count)))
            let members = lower < upper ? newIndex[lower..<upper].compactMap { $0 }.filter { $0 >= pinned } : []
            let problem = ChromeLoadSemantics.rangeProblem(
                start: Int(storedGroup.start), count: Int(storedGroup.count), tabs: stored.tabs.count, pinned: storedPinned)
            guard let first = members.first, let last = members.last else {
                record(
                    .groupRangeInvalid, file: metadataPath, "remove \(name); its tabs stay, ungrouped",
                    because: problem.map { "\($0), and none of its tabs is outside the pinned ones" }
                        ?? "none of its tabs is left in the list")
                continue
            }
            group.start = Int32(first)
            group.count = Int32(last - first + 1)
            if let problem {
                record(
                    .groupRangeInvalid, file: metadataPath,
                    "set \(name)'s range to tabs \(first)..<\(last + 1) (was \(storedGroup.start)+\(storedGroup.count))",
                    because: "\(problem); Chrome would remove the group")
            }
            if !group.color.isKnown {
                record(
                    .groupColorOutOfRange, file: metadataPath, "set \(name)'s colour to grey (was \(group.color.rawValue))",
                    because: "Chrome shows a group colour outside 0-8 as grey")
                group.color = .grey
            }
            if let id = group.id, !id.isZero {
                if seen.contains(id) {
                    let fresh = freshGroupID(number: number, used: &used)
                    record(
                        .groupIDDuplicate, file: metadataPath, "give \(name) the new id \(fresh.hex)",
                        because: "an earlier group has the id \(id.hex); Chrome would remove this one")
                    group.id = fresh
                }
            } else {
                let fresh = freshGroupID(number: number, used: &used)
                record(
                    .groupIDZero, file: metadataPath, "give \(name) the id \(fresh.hex)",
                    because: "it has \(group.id == nil ? "no id" : "an all-zero id"); Chrome would make up one on every launch")
                group.id = fresh
            }
            if let id = group.id { seen.insert(id) }
            groups.append(group)
        }
        return groups
    }

    /// A non-zero group id no other group has, derived from the session id and the group's place
    /// (so that repairing the same input twice gives the same id).
    private func freshGroupID(number: Int, used: inout Set<TabGroupID>) -> TabGroupID {
        var attempt = 0
        while true {
            let digest = SHA256.hash(Array("\(snapshot.id)/\(snapshot.incognito)/group/\(number)/\(attempt)".utf8))
            let word = { (offset: Int) in digest[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            let id = TabGroupID(high: word(0), low: word(8))
            attempt += 1
            guard !id.isZero, used.insert(id).inserted else { continue }
            return id
        }
    }
}

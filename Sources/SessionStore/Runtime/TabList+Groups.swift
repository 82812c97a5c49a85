import SessionModel

extension TabList {
    /// The groups as Chrome stores them: contiguous ranges, in list order.
    public var groups: [TabGroup] {
        var result: [TabGroup] = []
        var index = 0
        while index < tabs.count {
            guard let id = tabs[index].groupID, var group = groupInfo[id] else {
                index += 1
                continue
            }
            var end = index + 1
            while end < tabs.count, tabs[end].groupID == id { end += 1 }
            group.start = Int32(index)
            group.count = Int32(end - index)
            group.id = id
            result.append(group)
            index = end
        }
        return result
    }

    /// Pins or unpins the tab at `index`: a pinned tab moves to the end of the pinned tabs, an
    /// unpinned one to the start of the others. Returns its new index (nil when out of range).
    @discardableResult
    public func setPinned(_ pinned: Bool, at index: Int) -> Int? {
        guard tabs.indices.contains(index) else { return nil }
        let isPinned = index < pinnedCount
        guard pinned != isPinned else { return index }
        let active = activeTab
        let tab = tabs.remove(at: index)
        let target = pinned ? pinnedCount : pinnedCount - 1
        tabs.insert(tab, at: target)
        pinnedCount += pinned ? 1 : -1
        tab.groupID = nil
        normalizeGroups()
        activeIndex = active.flatMap { self.index(of: $0) } ?? -1
        if target != index { notify { $0.tabList(self, didMove: tab, from: index, to: target) } }
        notify { $0.tabListDidChangePinningOrGroups(self) }
        return target
    }

    /// Puts the tabs of `range` (unpinned ones) in a new group and returns its id; nil when the range
    /// is empty, out of the list, covers pinned tabs, or would split another group in two.
    @discardableResult
    public func group(
        _ range: Range<Int>, title: String = "", color: TabGroupColor = .grey,
        id: TabGroupID? = nil
    ) -> TabGroupID? {
        guard !range.isEmpty, range.lowerBound >= pinnedCount, range.upperBound <= tabs.count else { return nil }
        if range.lowerBound > 0, range.upperBound < tabs.count, let outer = tabs[range.lowerBound - 1].groupID,
            tabs[range.upperBound].groupID == outer
        {
            return nil
        }
        let groupID = id ?? browser?.profile?.makeGroupID() ?? TabGroupID(high: 0, low: UInt64(groupInfo.count + 1))
        groupInfo[groupID] = TabGroup(start: 0, count: 0, title: title, color: color, id: groupID)
        for index in range { tabs[index].groupID = groupID }
        normalizeGroups()
        notify { $0.tabListDidChangePinningOrGroups(self) }
        return groupID
    }

    /// Removes a group (its tabs stay where they are); false when no such group exists.
    @discardableResult
    public func ungroup(_ id: TabGroupID) -> Bool {
        guard groupInfo.removeValue(forKey: id) != nil else { return false }
        for tab in tabs where tab.groupID == id { tab.groupID = nil }
        notify { $0.tabListDidChangePinningOrGroups(self) }
        return true
    }

    /// Changes a group's title, colour or collapsed state; false when no such group exists.
    @discardableResult
    public func updateGroup(_ id: TabGroupID, title: String? = nil, color: TabGroupColor? = nil, collapsed: Bool? = nil) -> Bool {
        guard var group = groupInfo[id] else { return false }
        if let title { group.title = title }
        if let color { group.color = color }
        if let collapsed { group.collapsed = collapsed }
        groupInfo[id] = group
        notify { $0.tabListDidChangePinningOrGroups(self) }
        return true
    }

    /// The group a tab inserted at `index` joins: the one on both sides of it, if any.
    func joiningGroup(at index: Int) -> TabGroupID? {
        guard index > 0, index + 1 < tabs.count, let left = tabs[index - 1].groupID else { return nil }
        return tabs[index + 1].groupID == left ? left : nil
    }

    /// The group a moved tab belongs to at its new place: one it lands inside, or its own group if
    /// it is still next to a tab of it.
    func groupAfterMove(of tab: BrowserTab, at index: Int) -> TabGroupID? {
        if let joined = joiningGroup(at: index) { return joined }
        guard let own = tab.groupID else { return nil }
        let left = index > 0 ? tabs[index - 1].groupID : nil
        let right = index + 1 < tabs.count ? tabs[index + 1].groupID : nil
        return left == own || right == own ? own : nil
    }

    /// Keeps groups valid: no pinned tab in a group, each group one contiguous run (the longest one
    /// is kept), and groups without tabs forgotten.
    func normalizeGroups() {
        for index in 0..<min(pinnedCount, tabs.count) { tabs[index].groupID = nil }
        var runs: [TabGroupID: [Range<Int>]] = [:]
        var index = 0
        while index < tabs.count {
            guard let id = tabs[index].groupID else {
                index += 1
                continue
            }
            var end = index + 1
            while end < tabs.count, tabs[end].groupID == id { end += 1 }
            runs[id, default: []].append(index..<end)
            index = end
        }
        for ranges in runs.values where ranges.count > 1 {
            let longest = ranges.max { $0.count < $1.count } ?? ranges[0]
            for range in ranges where range != longest {
                for index in range { tabs[index].groupID = nil }
            }
        }
        for id in groupInfo.keys where runs[id] == nil { groupInfo[id] = nil }
    }
}

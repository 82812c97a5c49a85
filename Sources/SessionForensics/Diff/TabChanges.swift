import SessionModel

/// The tabs of a session that were added, removed, moved or changed.
public struct TabChanges: Sendable, Equatable {
    /// Tabs only on the second side, by their index there.
    public var added: [TabPlacement]
    /// Tabs only on the first side, by their index there.
    public var removed: [TabPlacement]
    /// Tabs whose order relative to the other common tabs really changed, by their new index.
    public var moved: [TabMove]
    /// Tabs on both sides whose content differs, by their new index.
    public var changed: [TabChange]

    public init(added: [TabPlacement] = [], removed: [TabPlacement] = [], moved: [TabMove] = [], changed: [TabChange] = []) {
        self.added = added
        self.removed = removed
        self.moved = moved
        self.changed = changed
    }

    /// True when no tab was added, removed, moved or changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && moved.isEmpty && changed.isEmpty }
}

/// A tab on one side only, and where it is there.
public struct TabPlacement: Sendable, Equatable {
    public var index: Int
    public var tab: Tab

    public init(index: Int, tab: Tab) {
        self.index = index
        self.tab = tab
    }
}

/// A tab that changed its place among the tabs common to both sides.
public struct TabMove: Sendable, Equatable {
    public var from: Int
    public var to: Int
    /// The tab as it is on the second side.
    public var tab: Tab

    public init(from: Int, to: Int, tab: Tab) {
        self.from = from
        self.to = to
        self.tab = tab
    }
}

/// What can differ in a tab found on both sides; the raw values are the JSON field names.
public enum TabField: String, Sendable, Equatable, CaseIterable {
    case title
    case url
    /// Navigation items (their number, or with histories read, their content).
    case history
    case lastCommittedIndex
    case pinned
    /// The opening tab (by identity, not index) and navigation index, or data.pb's `has_opener`.
    case opener
    /// The tab group the tab belongs to.
    case group
    case userAgent
    case creationTime
    case lastActiveTime
    /// Whether the tab was read past where its browser stops (marked salvaged).
    case salvaged
}

/// A tab on both sides whose content differs.
public struct TabChange: Sendable, Equatable {
    public var fromIndex: Int
    public var toIndex: Int
    public var before: Tab
    public var after: Tab
    /// What differs, in `TabField` order.
    public var fields: [TabField]
    /// How the navigation items differ, when both histories were read and they differ.
    public var history: HistoryChange?

    public init(fromIndex: Int, toIndex: Int, before: Tab, after: Tab, fields: [TabField], history: HistoryChange?) {
        self.fromIndex = fromIndex
        self.toIndex = toIndex
        self.before = before
        self.after = after
        self.fields = fields
        self.history = history
    }
}

/// How a tab's navigation items differ: items only on the second side, only on the first, and
/// items at a corresponding place whose content was rewritten.
public struct HistoryChange: Sendable, Equatable {
    public var appended: Int
    public var removed: Int
    public var rewritten: Int

    public init(appended: Int, removed: Int, rewritten: Int) {
        self.appended = appended
        self.removed = removed
        self.rewritten = rewritten
    }
}

import SessionModel

/// The tab groups of a session that were added, removed or changed.
public struct GroupChanges: Sendable, Equatable {
    /// Groups only on the second side.
    public var added: [TabGroup]
    /// Groups only on the first side.
    public var removed: [TabGroup]
    /// Groups on both sides that differ.
    public var changed: [GroupChange]

    public init(added: [TabGroup] = [], removed: [TabGroup] = [], changed: [GroupChange] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// True when no group was added, removed or changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
}

/// What can differ in a tab group found on both sides; the raw values are the JSON field names.
public enum GroupField: String, Sendable, Equatable, CaseIterable {
    case title
    case color
    case collapsed
    /// Which tabs the group holds, or their order.
    case tabs
}

/// A tab group on both sides (matched by group id) that differs.
public struct GroupChange: Sendable, Equatable {
    public var before: TabGroup
    public var after: TabGroup
    /// What differs, in `GroupField` order.
    public var fields: [GroupField]

    public init(before: TabGroup, after: TabGroup, fields: [GroupField]) {
        self.before = before
        self.after = after
        self.fields = fields
    }
}

import SessionModel

/// A value that differs between the two sides of a comparison.
public struct ValueChange<Value: Sendable & Equatable>: Sendable, Equatable {
    public var from: Value
    public var to: Value

    public init(from: Value, to: Value) {
        self.from = from
        self.to = to
    }

    /// A change when the values differ, nil when they are equal.
    public static func between(_ from: Value, _ to: Value) -> ValueChange? {
        from == to ? nil : ValueChange(from: from, to: to)
    }
}

/// What `Differ` found between two sets of sessions (two profiles, session directories or files).
public struct ProfileDiff: Sendable, Equatable {
    /// One entry per session found on either side, regular sessions first, then incognito, each by id.
    public var sessions: [SessionDiff]

    public init(sessions: [SessionDiff]) { self.sessions = sessions }

    /// True when every session is on both sides and nothing in them differs.
    public var identical: Bool { sessions.allSatisfy { $0.status == .same } }
}

/// How one session (window) differs between the two sides.
public struct SessionDiff: Sendable, Equatable {
    /// Whether the session is on one side only, or on both.
    public enum Status: String, Sendable, Equatable {
        case added
        case removed
        case changed
        case same
    }

    /// The session's id (on the second side when it is there).
    public var id: SessionID
    public var incognito: Bool
    /// The id on the first side, when two lone sessions with different ids were compared.
    public var previousID: SessionID?
    public var status: Status
    public var activeIndex: ValueChange<Int32>?
    public var pinnedCount: ValueChange<Int32>?
    public var tabs: TabChanges
    public var groups: GroupChanges
    /// The session on the first side, if it is there.
    public var before: Session?
    /// The session on the second side, if it is there.
    public var after: Session?

    public init(
        id: SessionID, incognito: Bool, previousID: SessionID? = nil, status: Status,
        activeIndex: ValueChange<Int32>? = nil, pinnedCount: ValueChange<Int32>? = nil,
        tabs: TabChanges = TabChanges(), groups: GroupChanges = GroupChanges(),
        before: Session?, after: Session?
    ) {
        self.id = id
        self.incognito = incognito
        self.previousID = previousID
        self.status = status
        self.activeIndex = activeIndex
        self.pinnedCount = pinnedCount
        self.tabs = tabs
        self.groups = groups
        self.before = before
        self.after = after
    }
}

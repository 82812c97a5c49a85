import SessionModel

/// What repair will do to a profile: the sessions it sets aside and writes anew (optimized
/// directories and legacy session files), the legacy sessions it only sets aside, and the findings
/// nothing in the plan fixes.
public struct RepairPlan: Sendable {
    /// One file a directory rewrite writes: its path inside the directory and its bytes.
    public struct PlannedFile: Sendable, Hashable {
        /// The path, relative to the directory written.
        public var path: String
        public var bytes: [UInt8]

        /// Every stored property, as given.
        package init(_ path: String, _ bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// One session directory: set aside as it is, then written anew in its repaired form.
    public struct SessionRepair: Sendable {
        public var session: SessionID
        public var incognito: Bool
        /// The session directory, relative to the profile.
        public var directory: String
        /// The steps, each naming the validate rule it fixes.
        public var actions: [RepairAction]
        /// False when the directory holds nothing to set aside (it is only written).
        public var setsAside: Bool
        /// Number of tabs of the repaired list.
        public var tabs: Int
        /// The directory's whole new content, in the order it is written (the file that makes
        /// the window whole, its list, last: a staged copy holding it is complete).
        package var files: [PlannedFile]
        /// The window's list as written, and as it was read (salvaged up to the damage; nil when
        /// it was missing): what changes for the window as a whole is told from the two.
        package var list: Session
        package var stored: Session?
        /// What changes for the window as a whole.
        public var effects: [WindowEffect] {
            stored.map { WindowEffect.effects(stored: $0, repaired: list) } ?? []
        }

        /// Every stored property, as given.
        package init(
            session: SessionID, incognito: Bool, directory: String, actions: [RepairAction], setsAside: Bool, tabs: Int,
            files: [PlannedFile], list: Session, stored: Session?
        ) {
            self.session = session
            self.incognito = incognito
            self.directory = directory
            self.actions = actions
            self.setsAside = setsAside
            self.tabs = tabs
            self.files = files
            self.list = list
            self.stored = stored
        }
    }

    /// A legacy session (`Sessions/<id>/session.plist`): its directory set aside whole, then the
    /// file written anew as Chrome loads it (see `LegacySessionRebuilder`).
    public struct LegacyRewrite: Sendable {
        public var session: SessionID
        public var incognito: Bool
        /// The session directory, relative to the profile.
        public var directory: String
        /// The session.plist, relative to the profile.
        public var file: String
        /// The steps, each naming the validate rule it fixes.
        public var actions: [RepairAction]
        /// Number of tabs of the repaired window.
        public var tabs: Int
        /// What is written.
        package var bytes: [UInt8]

        /// Every stored property, as given.
        package init(
            session: SessionID, incognito: Bool, directory: String, file: String, actions: [RepairAction], tabs: Int, bytes: [UInt8]
        ) {
            self.session = session
            self.incognito = incognito
            self.directory = directory
            self.file = file
            self.actions = actions
            self.tabs = tabs
            self.bytes = bytes
        }
    }

    /// A legacy session directory (`Sessions/<id>`) moved aside and not converted.
    public struct LegacySetAside: Sendable {
        public var session: SessionID
        public var incognito: Bool
        /// The directory, relative to the profile.
        public var directory: String
        public var action: RepairAction

        /// Every stored property, as given.
        package init(session: SessionID, incognito: Bool, directory: String, action: RepairAction) {
            self.session = session
            self.incognito = incognito
            self.directory = directory
            self.action = action
        }
    }

    public var sessions: [SessionRepair]
    public var rewrites: [LegacyRewrite]
    public var legacy: [LegacySetAside]
    /// Session files written anew, of the families whose sessions are files (a Firefox for iOS
    /// window may only have its tabs' session states set aside).
    public var fileRewrites: [FileRewrite] = []
    /// Findings that need repair but that nothing in the plan fixes.
    public var unrepaired: [Finding]
    /// What validate found before.
    public var before: ValidationReport

    /// Every window-level effect, session by session.
    public var effects: [WindowEffect] { sessions.flatMap(\.effects) }

    /// Every step, session by session, then the legacy rewrites and set-asides.
    public var actions: [RepairAction] {
        sessions.flatMap(\.actions) + rewrites.flatMap(\.actions) + legacy.map(\.action) + fileRewrites.flatMap(\.actions)
    }

    /// True when repair has nothing to change.
    public var isEmpty: Bool { sessions.isEmpty && rewrites.isEmpty && legacy.isEmpty && fileRewrites.isEmpty }

    /// Every directory the plan replaces or sets aside.
    public var directories: Set<String> { Set(sessions.map(\.directory) + rewrites.map(\.directory) + legacy.map(\.directory)) }

    /// Every stored property, as given.
    package init(
        sessions: [SessionRepair], rewrites: [LegacyRewrite], legacy: [LegacySetAside], fileRewrites: [FileRewrite] = [],
        unrepaired: [Finding], before: ValidationReport
    ) {
        self.sessions = sessions
        self.rewrites = rewrites
        self.legacy = legacy
        self.fileRewrites = fileRewrites
        self.unrepaired = unrepaired
        self.before = before
    }
}

/// One thing repair did to the profile.
public enum RepairStep: Sendable, Hashable {
    /// A directory was set aside as entry `entry` at `path` (both relative to the profile).
    case setAside(directory: String, entry: String, path: String)
    /// A file was written atomically.
    case wrote(String)
    /// Files of a window were set aside together as entry `entry` at `path` (relative to the profile).
    case setAsideFiles(files: [String], entry: String, path: String)
    /// A file set aside was removed from the live profile.
    case removed(String)
    /// An interrupted repair of this directory had written it in full: it was put in place.
    case finishedInterrupted(directory: String)
    /// An interrupted repair had not finished writing this staged directory: it was removed
    /// (the live session it was to replace was untouched).
    case removedUnfinished(directory: String)
    /// An interrupted set-aside was settled (see `SessionSetAside.completeInterruptedEntries`):
    /// its manifest completed, or what remained of the live directory removed; `what` says which.
    case settledSetAside(what: String)
}

extension RepairPlan {
    /// A plan of no step that leaves every finding of `report` that needs repair unrepaired:
    /// where a planner of a whole profile's session files starts.
    package static func unrepaired(_ report: ValidationReport) -> RepairPlan {
        RepairPlan(sessions: [], rewrites: [], legacy: [], unrepaired: report.findings.filter(\.needsRepair), before: report)
    }
}

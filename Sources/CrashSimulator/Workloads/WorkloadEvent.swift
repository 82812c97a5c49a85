import SessionModel

/// One browser event of a workload (docs/crash-simulation.md, the system under test).
public enum WorkloadEvent: Sendable, Equatable {
    /// Start the app: recovery, then restore of every session.
    case launch
    /// Open a tab named `tab` (a workload-local label) in a window, at the end of its list.
    case open(tab: String, url: String, title: String, window: String, incognito: Bool)
    /// Commit a navigation in a tab.
    case navigate(tab: String, url: String, title: String)
    /// Close a tab.
    case close(tab: String)
    /// Move a tab to another index of its window.
    case move(tab: String, to: Int)
    /// Make a tab the active one.
    case activate(tab: String)
    /// Pin or unpin a tab.
    case pin(tab: String, pinned: Bool)
    /// Put adjacent tabs into a new group.
    case group(tabs: [String], title: String, color: TabGroupColor)
    /// Close every incognito tab (the incognito files are removed at once).
    case closeAllIncognito
    /// The app goes to the background (immediate save).
    case background
    /// A window's scene disconnects (immediate save; the window closes, its session stays).
    case disconnect(window: String)
    /// Let virtual time pass (the delayed save fires 2.5 s after the first change).
    case wait(seconds: Double)
    /// The app dies without saving (the next launch recovers).
    case crash
    /// The app dies while restoring at launch (what the crash-loop guard counts).
    case crashDuringRestore
    /// Clean exit: save, then record the clean exit.
    case shutdown

    /// The default window's name.
    public static let mainWindow = "main"
}

/// A named sequence of events.
public struct Workload: Sendable {
    /// One event with the line it came from.
    public struct Step: Sendable {
        public var event: WorkloadEvent
        /// The event as written (after `repeat` expansion).
        public var text: String
        public var line: Int
    }

    /// A built-in name or the file's path.
    public var name: String
    public var steps: [Step]
    /// The damaged profile the workload starts from (`from NAME`); nil: an empty one, or the
    /// profile `--from` names.
    public var start: DamagedProfile?

    public init(name: String, steps: [Step], start: DamagedProfile? = nil) {
        self.name = name
        self.steps = steps
        self.start = start
    }
}

extension WorkloadEvent {
    /// Whether the store must have saved every change when the event returns (Chrome saves at
    /// once when the app goes to the background, a window disconnects, or the app exits).
    var promisesSave: Bool {
        switch self {
        case .background, .disconnect, .shutdown: return true
        default: return false
        }
    }
}

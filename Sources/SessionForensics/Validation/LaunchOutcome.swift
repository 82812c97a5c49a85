/// What the browser does about a finding on its next launch, in every family's words: Chrome for
/// iOS's from docs/chrome-ios-format.md (how Chrome loads), the others' from their format pages.
public enum LaunchOutcome: String, Sendable, Hashable, CaseIterable {
    /// The window loads empty and its tab directories are deleted.
    case sessionLost = "session-lost"
    /// One tab disappears (dropped on load, or at the next save once it has no history).
    case tabLost = "tab-lost"
    /// A file or directory is deleted (or navigation entries are trimmed away).
    case entryDeleted = "entry-deleted"
    /// The browser crashes while loading.
    case crash
    /// A value is silently changed (re-chosen, cleared, clamped, re-derived).
    case adjusted
    /// The browser does nothing about it.
    case none

    /// Worst first: crash, session-lost, tab-lost, entry-deleted, adjusted, none.
    var gravity: Int {
        switch self {
        case .crash: return 0
        case .sessionLost: return 1
        case .tabLost: return 2
        case .entryDeleted: return 3
        case .adjusted: return 4
        case .none: return 5
        }
    }
}

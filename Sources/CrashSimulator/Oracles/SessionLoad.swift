import SessionFormats
import SessionModel

/// What Chrome's loader makes of one live session directory, reduced to what the oracles need.
struct SessionLoad: Sendable {
    /// Why the whole session is lost (the window loads empty and its tab directories are deleted).
    var loss: String?
    /// Tabs restored, in order.
    var tabs: [TabID]
    /// Tabs of the stored list that are not restored, with the reason.
    var dropped: [(id: TabID, reason: String)]
    /// Restored tabs whose directory or data.pb is missing: lost at the next save.
    var withoutData: [TabID]
    /// Tab directories the loader deletes (not listed), by id.
    var deletedTabDirectories: [TabID]
    /// Each tab Chrome's loading rules take away, with the rule (`Outcome.shortenings`).
    var shortenings: [String] = []
}

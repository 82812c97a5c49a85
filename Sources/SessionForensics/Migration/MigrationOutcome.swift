import SessionStore

/// What applying a migration plan did: what it wrote, set aside and removed.
public struct MigrationOutcome: Sendable {
    /// The session files or directories written, relative to the profile.
    public var written: [String] = []
    /// The sessions set aside (the converted ones, and leftovers of earlier runs).
    public var setAside: [SetAsideEntry] = []
    /// Half-written trees and temporary files of interrupted runs that were removed.
    public var removed: [String] = []

    /// Every stored property, as given.
    package init(written: [String] = [], setAside: [SetAsideEntry] = [], removed: [String] = []) {
        self.written = written
        self.setAside = setAside
        self.removed = removed
    }
}

import FileSystemKit
import SessionModel

/// One entry's worth of a profile that `aside push` sets aside: what a family's browser loads as
/// one session, laid out as the family keeps it.
public struct SetAsideUnit: Sendable, Equatable {
    /// How the unit lies in the profile.
    public enum Content: Sendable, Equatable {
        /// A session directory (relative to the profile), moved whole by one rename.
        case directory(String)
        /// Files (relative to the profile), linked into the entry at their paths and then removed
        /// from the profile, those of `removedLast` last: what the browser loads first, so that a
        /// push cut short leaves a session it still loads, and a rerun sets the rest aside.
        case files([String], removedLast: [String])
    }

    /// The session id the entry carries.
    public var session: SessionID
    public var incognito: Bool
    public var content: Content

    public init(session: SessionID, incognito: Bool, content: Content) {
        self.session = session
        self.incognito = incognito
        self.content = content
    }

    /// The files in the order a push removes them: every other first, `removedLast` after.
    public var removalOrder: [String] {
        guard case .files(let files, let last) = content else { return [] }
        return files.filter { !last.contains($0) } + last.filter(files.contains)
    }
}

extension BrowserFamily {
    /// Without a layout of files of its own, a family sets nothing aside.
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        []
    }
    public var setAsideRoots: Set<String> { [] }
    public func loadedFirst(of files: [String]) -> [String] { [] }
}

extension BrowserFamilies {
    /// The family whose set-aside entries hold files under these top-level names (nil: none
    /// does, and the entry is a session directory).
    public static func family(holdingEntryNames names: [String]) -> (any BrowserFamily)? {
        all.first { family in names.contains { family.setAsideRoots.contains($0) } }
    }
}

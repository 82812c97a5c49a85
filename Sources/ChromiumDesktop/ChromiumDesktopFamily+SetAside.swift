import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Chromium desktop's session is a set of command logs that each hold every window (`Sessions/`,
/// and the legacy `Current Session` and its kin): one entry holds them all.
extension ChromiumDesktopFamily {
    /// The session id a Chromium desktop profile's entries carry.
    public static let setAsideSession: SessionID = ChromiumDesktopLayout.sessionsDirectory

    /// Every session file of the profile there is, in one unit (`Sessions`). Chrome writes no
    /// private window to its session files.
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        DesktopSessionFiles.units(input, id: Self.setAsideSession, session: session, incognito: incognito, loadedFirst: loadedFirst)
    }

    public var setAsideRoots: Set<String> { Set([ChromiumDesktopLayout.sessionsDirectory] + ChromiumDesktopLayout.legacyNames.keys) }

    /// The newest `Session_` file by the time in its name, which Chrome restores; without one, the
    /// legacy session files (`Current Session`, `Last Session`), which Chromium read before `Sessions/`.
    public func loadedFirst(of files: [String]) -> [String] {
        let time = { (file: String) in ChromiumDesktopLayout.parse(lastPathComponent(file)).flatMap { $0.type == .session ? $0.time : nil }
        }
        if let newest = files.filter({ time($0) != nil }).max(by: { (time($0) ?? 0) < (time($1) ?? 0) }) { return [newest] }
        return files.filter { ChromiumDesktopLayout.legacyNames[$0] == .session }
    }
}

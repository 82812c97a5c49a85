import SessionModel

/// The one unit of a desktop browser's profile, whose session files each hold every window.
public enum DesktopSessionFiles {
    /// The files of `input` that are there, sorted, as one unit named `id` (none when the profile
    /// holds no session file or has no private side; `session`, when given, must be `id`).
    public static func units(
        _ input: LocatedInput, id: SessionID, session: SessionID?, incognito: Bool, loadedFirst: ([String]) -> [String]
    ) -> [SetAsideUnit] {
        guard !incognito, session == nil || session == id else { return [] }
        let files = input.sessions.map(\.path).filter { input.tree.fileSystem.kind(of: input.tree.absolute($0)) != nil }.sorted()
        guard !files.isEmpty else { return [] }
        return [SetAsideUnit(session: id, incognito: false, content: .files(files, removedLast: loadedFirst(files)))]
    }
}

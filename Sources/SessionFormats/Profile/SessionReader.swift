import FileSystemKit
import SessionModel

/// Makes model sessions of what an `InputRead` holds, as Chrome restores them lazily: listing
/// tabs reads only the lists; histories read each listed tab's data.pb.
public struct SessionReader: Sendable {
    public let input: LocatedInput

    public init(input: LocatedInput) {
        self.input = input
    }

    /// Reads every session of the input, with histories when `history` is true.
    public func readAll(history: Bool) throws(FormatError) -> [Session] {
        let read = BrowserFamilies.family(of: input).read(input, depth: history ? .histories : .lists, backups: false)
        var sessions: [Session] = []
        for session in read.sessions {
            sessions += try self.sessions(session, history: history)
        }
        return sessions
    }

    /// Reads every session it can: the sessions read, and an error for each that could not be.
    public func readEach(history: Bool) -> (sessions: [Session], errors: [(source: SessionSource, error: FormatError)]) {
        sessions(of: BrowserFamilies.family(of: input).read(input, depth: history ? .histories : .lists, backups: false), history: history)
    }

    /// The sessions of `read` that decode, and an error for each that does not.
    public func sessions(of read: InputRead, history: Bool) -> (sessions: [Session], errors: [(source: SessionSource, error: FormatError)])
    {
        var sessions: [Session] = []
        var errors: [(source: SessionSource, error: FormatError)] = []
        for session in read.sessions {
            do throws(FormatError) {
                sessions += try self.sessions(session, history: history)
            } catch {
                errors.append((session.source, error))
            }
        }
        return (sessions, errors)
    }

    /// Reads one session; with `history`, each tab's data.pb too (nil history where it is missing or unreadable).
    public func read(_ source: SessionSource, history: Bool) throws(FormatError) -> Session {
        try session(InputRead.read(source, tree: input.tree, depth: history ? .histories : .lists), history: history)
    }

    /// For each session file of `read` whose tabs were read past where its browser stops (and are
    /// marked salvaged), that place, as damage: what `inspect` names beside the tabs it shows.
    public func salvageDamage(of read: InputRead) -> [(source: SessionSource, error: FormatError)] {
        read.sessions.compactMap { session in
            guard case .file(let file) = session.content, let damage = file.salvageDamage(session.source, reader: self) else { return nil }
            return (session.source, damage)
        }
    }

    /// The model sessions of one session read: one window, or every window of a Firefox desktop
    /// session file (salvaged up to its damage when Firefox would not load it).
    public func sessions(_ read: SessionRead, history: Bool) throws(FormatError) -> [Session] {
        if case .file(let file) = read.content { return try file.sessions(read.source, reader: self, history: history) }
        return [try session(read, history: history)]
    }

    /// The model session of one session read; with `history`, the histories its tab directories
    /// decoded (nil where data.pb is missing or does not decode). Errors name files as the user gave them.
    public func session(_ read: SessionRead, history: Bool) throws(FormatError) -> Session {
        let source = read.source
        switch read.content {
        case .directory(let directory):
            var session: Session
            switch (directory.metadata, directory.list) {
            case (.missing, _):
                throw .unreadable(path: displayPath(source.metadataPath), reason: "missing")
            case (.unreadable(let error), _):
                throw error
            case (_, .decoded(let decoded)?):
                session = decoded
            case (_, .damaged(let error, _)?):
                throw error.naming(displayPath(source.metadataPath))
            case (.bytes, nil):
                throw .unreadable(path: displayPath(source.metadataPath), reason: "not decoded")
            }
            if history {
                for index in session.tabs.indices {
                    session.tabs[index].history =
                        directory.entry(named: Tab.directoryName(for: session.tabs[index].id))?.tab?.decodedHistory
                }
            }
            return session
        case .tabData(let file, let decoded):
            if case .unreadable(let error) = file { throw error }
            guard let decoded else { throw .unreadable(path: displayPath(source.path), reason: "missing") }
            let tabHistory: TabHistory
            switch decoded {
            case .success(let value): tabHistory = value
            case .failure(let error): throw error.naming(displayPath(source.path))
            }
            let directory = pathComponents(source.path).dropLast().last ?? ""
            var tab = Tab.summarising(tabHistory, id: Tab.id(fromDirectoryName: directory) ?? 0)
            if !history { tab.history = nil }
            return Session(
                id: source.id, incognito: source.incognito, format: .optimized,
                activeIndex: 0, pinnedCount: 0, tabs: [tab])
        case .legacy(let file, let decoded):
            // A FIFO, a directory or a file that cannot be opened, named as the user gave it.
            if case .unreadable(let error) = file { throw error.naming(displayPath(source.path)) }
            guard let decoded else { throw .unreadable(path: displayPath(source.path), reason: "missing") }
            var session: Session
            switch decoded {
            case .success(let window): session = window.session(id: source.id, incognito: source.incognito)
            case .failure(let error):
                // The decoder names the file by its tree path; name it as the user gave it.
                if case .damaged = error { throw error.naming(displayPath(source.path)) }
                throw error
            }
            if !history {
                for index in session.tabs.indices { session.tabs[index].history = nil }
            }
            return session
        case .file(let file):
            // A file of several windows: the first stands for it here.
            return try file.session(source, reader: self, history: history)
        }
    }

    /// A tree path as shown to people: prefixed by the input's name.
    public func displayPath(_ path: String) -> String {
        joinPath(input.tree.displayName, path)
    }
}

extension Tab {
    /// A list entry rebuilt from a tab's history the way Chrome derives item metadata: item count,
    /// the last committed item's display URL and title, and times from the items.
    public static func summarising(_ history: TabHistory, id: TabID) -> Tab {
        let active = history.lastCommittedItem ?? history.items.last
        let times = history.items.map(\.timestamp).filter { !$0.isNull }
        return Tab(
            id: id, title: active?.title ?? "", url: active?.displayURL ?? "",
            creationTime: times.min() ?? .null, lastActiveTime: times.max() ?? .null,
            navigationItemCount: Int32(clamping: history.items.count), opener: nil, pinned: false, history: history
        )
    }
}

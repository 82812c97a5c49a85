import FileSystemKit
import SessionModel

/// How far a read of an input goes.
public enum ReadDepth: Int, Sendable, Comparable {
    /// The lists alone (session_metadata.pb, a session.plist, a lone data.pb): what listing tabs needs.
    case lists
    /// Also the data.pb of each listed tab, decoded: what showing histories needs.
    case histories
    /// Also every entry of each session directory, each tab directory's data.pb decoded and state.pb measured.
    case tabs
    /// Also the bytes of each state.pb, which a rewrite of the directory carries over.
    case rewrite

    public static func < (lhs: ReadDepth, rhs: ReadDepth) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Everything a command needs from an input, read in one walk: each session's files, what they
/// decode to (with the damage met and what decodes before it), and the entries around them.
///
/// Every file is read once, in two rounds on every core joined in input order: the sessions'
/// lists and directory entries, then the tab directories of all sessions together, so that the
/// work spreads evenly whether an input has one large window or many small ones.
public struct InputRead: Sendable {
    /// The input as located.
    public var input: LocatedInput
    public var depth: ReadDepth
    /// One read per session of `input.sessions`, in the same order.
    public var sessions: [SessionRead]
    /// Chrome's set-aside sessions of a profile (`input.chromeBackups`), read when asked for.
    public var backups: [SessionRead]

    /// Reads `input` as deep as `depth`, and Chrome's backups too with `backups`.
    ///
    /// With `previous`, a read of a tree that holds the same content as this one outside the
    /// directories `changed` (a profile and the plan of its repair, `PlannedTree`), each session
    /// outside them is taken from `previous` instead of being read again.
    public init(
        _ input: LocatedInput, depth: ReadDepth, backups: Bool = false, reusing previous: InputRead? = nil, except changed: Set<String> = []
    ) {
        self.input = input
        self.depth = depth
        let tree = input.tree
        let concurrently = tree.fileSystem.readsConcurrently
        var reusable: [SessionSource: SessionRead] = [:]
        if let previous, previous.depth >= depth {
            for session in previous.sessions where !changed.contains(session.directoryPath) { reusable[session.source] = session }
        }
        let reused = reusable
        var sessions = OrderedParallelMap.map(input.sessions, concurrently: concurrently) { source in
            reused[source] ?? InputRead.readSession(source, tree: tree, depth: depth)
        }
        // The second round: the tab directories of every session.
        var pending: [(session: Int, entry: Int, path: String)] = []
        for (index, session) in sessions.enumerated() {
            guard let directory = session.directory else { continue }
            for (position, entry) in directory.entries.enumerated() where entry.kind == nil {
                pending.append((index, position, joinPath(directory.path, entry.name)))
            }
        }
        let tabs = OrderedParallelMap.map(pending.map(\.path), concurrently: concurrently) { path in
            InputRead.readTabDirectory(path, tree: tree, depth: depth)
        }
        InputRead.place(tabs, at: pending.map { ($0.session, $0.entry) }, in: &sessions)
        self.sessions = sessions
        self.backups = backups ? input.chromeBackups.map { InputRead.readSession($0, tree: tree, depth: .lists) } : []
    }

    /// This read with the state.pb bytes of the sessions in `directories` read too (each file once),
    /// as a rewrite of those sessions needs; the other sessions are left as they are.
    public func readingState(of directories: Set<String>) -> InputRead {
        var read = self
        let tree = input.tree
        read.sessions = sessions.map { session in
            guard case .directory(var directory) = session.content, directories.contains(directory.path) else { return session }
            directory.entries = directory.entries.map { entry in
                guard var tab = entry.tab, tab.stateSize != nil, tab.state == nil else { return entry }
                tab.state = try? tree.read(joinPath(directory.path, entry.name, ProfileLayout.tabStateFile))
                var entry = entry
                entry.tab = tab
                return entry
            }
            var session = session
            session.content = .directory(directory)
            return session
        }
        return read
    }

    /// The bytes this read holds of each file of the sessions in `directories`, by tree path.
    public func heldFiles(in directories: Set<String>) -> [String: [UInt8]] {
        var held: [String: [UInt8]] = [:]
        for session in sessions {
            switch session.content {
            case .directory(let directory) where directories.contains(directory.path):
                held[directory.metadataPath] = directory.metadata.bytes
                for tab in directory.tabDirectories {
                    held[joinPath(directory.path, tab.name, ProfileLayout.tabDataFile)] = tab.data.bytes
                    held[joinPath(directory.path, tab.name, ProfileLayout.tabStateFile)] = tab.state
                }
            case .legacy(let file, _):
                let path = session.source.path
                if directories.contains(pathComponents(path).dropLast().joined(separator: "/")) { held[path] = file.bytes }
            default: continue
            }
        }
        return held
    }

    /// Reads one session of `tree` alone, as deep as `depth` (both rounds, one after the other).
    public static func read(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> SessionRead {
        var read = readSession(source, tree: tree, depth: depth)
        if case .directory(var directory) = read.content {
            // Each tab directory is its own file: they are read on every core.
            directory.entries = OrderedParallelMap.map(directory.entries, concurrently: tree.fileSystem.readsConcurrently) { entry in
                entry.kind == nil ? readTabDirectory(joinPath(source.path, entry.name), tree: tree, depth: depth) : entry
            }
            read.content = .directory(directory)
        }
        return read
    }

    /// Puts the second round's entries in their sessions: `entries[k]` at `slots[k]` (a session's
    /// index and the entry's index in its directory), slots grouped by session, each session's
    /// entries assigned once (its index by name is rebuilt on each assignment).
    public static func place(
        _ entries: [SessionDirectoryRead.Entry], at slots: [(session: Int, entry: Int)], in sessions: inout [SessionRead]
    ) {
        var next = 0
        while next < slots.count {
            let session = slots[next].session
            guard case .directory(var directory) = sessions[session].content else { break }
            var placed = directory.entries
            while next < slots.count, slots[next].session == session {
                placed[slots[next].entry] = entries[next]
                next += 1
            }
            directory.entries = placed
            sessions[session].content = .directory(directory)
        }
    }

    /// The first round for one session: its list, and the entries of its directory (tab-like
    /// directories left with no kind, for the second round).
    public static func readSession(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> SessionRead {
        switch source.kind {
        case .optimizedDirectory:
            let metadata = FileRead(tree, source.metadataPath)
            let list = metadata.bytes.map {
                SessionDirectoryRead.decodeList($0, id: source.id, incognito: source.incognito, file: source.metadataPath)
            }
            // A metadata file given alone under another name says nothing about the directory around it.
            let walks = depth >= .tabs && source.metadataFileName == ProfileLayout.metadataFile
            var entries: [SessionDirectoryRead.Entry] = []
            if depth == .histories || (depth >= .tabs && !walks), case .decoded(let session)? = list {
                // The listed tabs' directories alone, each once.
                var seen = Set<String>()
                for tab in session.tabs where seen.insert(Tab.directoryName(for: tab.id)).inserted {
                    entries.append(SessionDirectoryRead.Entry(name: Tab.directoryName(for: tab.id), kind: nil, children: []))
                }
            }
            if walks {
                for name in tree.list(source.path) where name != source.metadataFileName {
                    if TabDirectoryRead.looksLikeTabDirectory(name) {
                        entries.append(SessionDirectoryRead.Entry(name: name, kind: nil, children: []))
                        continue
                    }
                    let path = joinPath(source.path, name)
                    let kind = tree.kind(of: path)
                    entries.append(SessionDirectoryRead.Entry(name: name, kind: kind, children: kind == .directory ? tree.list(path) : []))
                }
            }
            return SessionRead(
                source: source,
                content: .directory(
                    SessionDirectoryRead(
                        id: source.id, incognito: source.incognito, path: source.path, metadataFileName: source.metadataFileName,
                        metadata: metadata, list: list, entries: entries, walked: walks)))
        case .tabDataFile:
            let file = FileRead(reading: tree, source.path)
            return SessionRead(source: source, content: .tabData(file, file.bytes.map { TabDirectoryRead.decode($0, file: source.path) }))
        case .legacyPlist:
            let file = FileRead(reading: tree, source.path)
            let window = file.bytes.map { bytes -> Result<LegacyWindow, FormatError> in
                do throws(FormatError) {
                    return .success(try LegacySessionCodec.decodeWindow(bytes, file: source.path))
                } catch {
                    return .failure(error)
                }
            }
            return SessionRead(source: source, content: .legacy(file, window))
        case .file(let format):
            // Read by the family whose format it is.
            return SessionRead(source: source, content: .file(BrowserFamilies.readFile(source, format: format, tree: tree, depth: depth)))
        }
    }

    /// The second round for one tab-like directory: its kind and entries, data.pb read and
    /// decoded, state.pb measured (and read for `.rewrite`); for `.histories`, data.pb alone.
    public static func readTabDirectory(_ path: String, tree: ReadableTree, depth: ReadDepth) -> SessionDirectoryRead.Entry {
        let name = pathComponents(path).last ?? path
        if depth == .histories {
            let dataPath = joinPath(path, ProfileLayout.tabDataFile)
            // Missing or not: either way the tab has no history (one call, no look first).
            let data = FileRead(reading: tree, dataPath)
            guard let id = TabDirectoryRead.tabID(fromHexName: name) else {
                return SessionDirectoryRead.Entry(name: name, kind: nil, children: [])
            }
            let tab = TabDirectoryRead(
                name: name, id: id, data: data, history: data.bytes.map { TabDirectoryRead.decode($0, file: dataPath) },
                stateSize: nil, state: nil, others: [])
            return SessionDirectoryRead.Entry(name: name, kind: .directory, children: [], tab: tab)
        }
        let keepingState = depth >= .rewrite
        let snapshot = tree.snapshot(of: path, reading: ProfileLayout.tabDataFile, measuring: ProfileLayout.tabStateFile)
        guard snapshot.kind == .directory, let id = TabDirectoryRead.tabID(fromHexName: name) else {
            return SessionDirectoryRead.Entry(name: name, kind: snapshot.kind, children: snapshot.names)
        }
        let data = FileRead(snapshot.file)
        let dataPath = joinPath(path, ProfileLayout.tabDataFile)
        var state: [UInt8]?
        // Read at any size, as Chrome reads it (the reader refuses what no real file is: over 1 GiB).
        if keepingState, snapshot.measuredSize != nil { state = try? tree.read(joinPath(path, ProfileLayout.tabStateFile)) }
        let tab = TabDirectoryRead(
            name: name, id: id, data: data, history: data.bytes.map { TabDirectoryRead.decode($0, file: dataPath) },
            stateSize: snapshot.measuredSize, state: state,
            others: snapshot.names.filter { $0 != ProfileLayout.tabDataFile && $0 != ProfileLayout.tabStateFile })
        return SessionDirectoryRead.Entry(name: name, kind: .directory, children: snapshot.names, tab: tab)
    }
}

extension FileRead {
    /// Reads `path` of `tree`, any failure (nothing there too) unreadable with the reader's error.
    init(reading tree: ReadableTree, _ path: String) {
        do {
            self = .bytes(try tree.read(path))
        } catch {
            self = .unreadable(error)
        }
    }
}

extension SessionDirectoryRead {
    /// Reads the session directory `path` of `tree` alone, as deep as `depth` (both rounds, one after the other).
    public init(tree: ReadableTree, id: SessionID, incognito: Bool, path: String, depth: ReadDepth = .rewrite) {
        let source = SessionSource(id: id, incognito: incognito, kind: .optimizedDirectory, path: path)
        guard case .directory(let read) = InputRead.read(source, tree: tree, depth: depth).content else {
            self.init(id: id, incognito: incognito, path: path, metadata: .missing, entries: [])
            return
        }
        self = read
    }
}

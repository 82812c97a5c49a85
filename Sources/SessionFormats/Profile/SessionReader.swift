import FileSystemKit
import SessionModel

/// Reads sessions from a located input, lazily: listing tabs reads only session_metadata.pb, and a
/// tab's data.pb is read only when its history is asked for (as Chrome realizes tabs on use).
public struct SessionReader: Sendable {
    public let input: LocatedInput
    private let legacyDecoder: (@Sendable ([UInt8], SessionSource) throws(FormatError) -> Session)?

    /// Creates a reader; `legacyDecoder` decodes `session.plist` files (nil: legacy input is refused).
    public init(
        input: LocatedInput, legacyDecoder: (@Sendable ([UInt8], SessionSource) throws(FormatError) -> Session)? = LegacySessionCodec.decode
    ) {
        self.input = input
        self.legacyDecoder = legacyDecoder
    }

    /// Reads every session of the input, with histories when `history` is true.
    public func readAll(history: Bool) throws(FormatError) -> [Session] {
        var sessions: [Session] = []
        for source in input.sessions {
            sessions.append(try read(source, history: history))
        }
        return sessions
    }

    /// Reads every session it can: the sessions read, and an error for each that could not be.
    public func readEach(history: Bool) -> (sessions: [Session], errors: [(source: SessionSource, error: FormatError)]) {
        var sessions: [Session] = []
        var errors: [(source: SessionSource, error: FormatError)] = []
        for source in input.sessions {
            do throws(FormatError) {
                sessions.append(try read(source, history: history))
            } catch {
                errors.append((source, error))
            }
        }
        return (sessions, errors)
    }

    /// Reads one session; with `history`, each tab's data.pb too (nil history where it is missing or unreadable).
    public func read(_ source: SessionSource, history: Bool) throws(FormatError) -> Session {
        switch source.kind {
        case .optimizedDirectory:
            let bytes = try readMetadataBytes(source)
            var session = try ChromeProtoCodec.decodeSessionMetadata(
                bytes, id: source.id, incognito: source.incognito, file: displayPath(source.metadataPath))
            if history {
                // Each tab's data.pb is its own file: they are read and decoded on every core.
                let histories = OrderedParallelMap.map(session.tabs.map(\.id), concurrently: input.tree.fileSystem.readsConcurrently) {
                    id in try? readHistory(of: id, in: source)
                }
                for index in session.tabs.indices {
                    session.tabs[index].history = histories[index]
                }
            }
            return session
        case .tabDataFile:
            let tabHistory = try ChromeProtoCodec.decodeTabData(try input.tree.read(source.path), file: displayPath(source.path))
            let directory = pathComponents(source.path).dropLast().last ?? ""
            var tab = Tab.summarising(tabHistory, id: Tab.id(fromDirectoryName: directory) ?? 0)
            if !history { tab.history = nil }
            return Session(
                id: source.id, incognito: source.incognito, format: .optimized,
                activeIndex: 0, pinnedCount: 0, tabs: [tab])
        case .legacyPlist:
            guard let legacyDecoder else {
                throw .notASession(path: displayPath(source.path), reason: "legacy session.plist input is not supported by this reader")
            }
            let bytes: [UInt8]
            do {
                bytes = try input.tree.read(source.path)
            } catch {
                // A FIFO, a directory or a file that cannot be opened, named as the user gave it.
                throw error.naming(displayPath(source.path))
            }
            var session: Session
            do {
                session = try legacyDecoder(bytes, source)
            } catch {
                // The decoder names the file by its tree path; name it as the user gave it.
                if case .damaged(_, let offset, let reason) = error {
                    throw .damaged(file: displayPath(source.path), offset: offset, reason: reason)
                }
                throw error
            }
            if !history {
                for index in session.tabs.indices { session.tabs[index].history = nil }
            }
            return session
        }
    }

    /// Reads and decodes one tab's data.pb.
    public func readHistory(of tab: TabID, in source: SessionSource) throws(FormatError) -> TabHistory {
        let path = joinPath(source.path, Tab.directoryName(for: tab), ProfileLayout.tabDataFile)
        return try ChromeProtoCodec.decodeTabData(try input.tree.read(path), file: displayPath(path))
    }

    /// The bytes of a session's metadata file; a missing one is reported as unreadable.
    public func readMetadataBytes(_ source: SessionSource) throws(FormatError) -> [UInt8] {
        guard input.tree.kind(of: source.metadataPath) != nil else {
            throw .unreadable(path: displayPath(source.metadataPath), reason: "missing")
        }
        return try input.tree.read(source.metadataPath)
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

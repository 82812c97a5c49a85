import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Every tab that can be read from several session files, merged into one session Firefox loads:
/// the first document (in the order given: Firefox's load order) is the base, and each later
/// one adds the tabs none before it holds, window by window (a window beyond the base's becomes
/// a window of its own). A tab is the same as another when their entries' URLs are, in order.
///
/// The written document is the base's as read, every key kept, with its windows' tab lists
/// replaced; its version is set to the one Firefox writes when it is missing or refused.
public struct SessionstoreMerge: Sendable {
    /// The merged session.
    public var document: SessionstoreDocument
    /// How many tabs came from each document, in the order given.
    public var contributed: [Int]

    /// Merges `documents` (read whole or salvaged). A tab is left out when a file before its own
    /// holds one with the same entries; two such tabs of one file are both kept (a user may keep
    /// a page open twice).
    public init?(_ documents: [SessionstoreDocument]) {
        guard var base = documents.first else { return nil }
        var seen = Set(base.windows.flatMap { $0.tabs.map(\.identity) })
        var contributed = [base.tabCount]
        for other in documents.dropFirst() {
            var added = 0
            let before = seen
            for (index, window) in other.windows.enumerated() {
                let fresh = window.tabs.filter { !before.contains($0.identity) }
                for tab in fresh { seen.insert(tab.identity) }
                guard !fresh.isEmpty else { continue }
                added += fresh.count
                if index < base.windows.count {
                    base.windows[index].tabs += fresh
                } else {
                    var copy = window
                    copy.tabs = fresh
                    base.windows.append(copy)
                }
            }
            contributed.append(added)
        }
        document = base
        self.contributed = contributed
    }

    /// The merged session as the JSON Firefox reads: the base document's object with its windows
    /// rebuilt from the merged tabs (each window's and tab's own keys kept).
    public var json: [UInt8] {
        var members: [(String, JSONValue)] = []
        if case .object(let read) = document.raw { members = read }
        let windows = JSONValue.array(
            document.windows.map { window in
                var object: [(String, JSONValue)] = []
                if case .object(let read) = window.raw { object = read }
                SessionstoreMerge.set(&object, "tabs", .array(window.tabs.map(\.raw)))
                if case .int(let value)? = SessionstoreDecoder.member(window.raw, "selected"), value > window.tabs.count || value < 1 {
                    SessionstoreMerge.set(&object, "selected", .int(Int64(max(1, window.tabs.count))))
                }
                return .object(object)
            })
        SessionstoreMerge.set(&members, "windows", windows)
        if document.versionRefusal != nil || document.version == nil {
            SessionstoreMerge.set(&members, "version", .array([.string("sessionrestore"), .int(1)]))
        }
        return JSONValue.object(members).serializedBytes(pretty: false)
    }

    /// The merged session in the container Firefox reads first (`sessionstore.jsonlz4`).
    public func mozLz4(file: String) throws(ArchiveError) -> [UInt8] {
        try MozLz4.encode(json, file: file)
    }

    /// Sets `key` of an object's members: in place of its first occurrence, any later one
    /// removed (`JSON.parse` would keep the last), else at the end.
    static func set(_ members: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        guard let index = members.firstIndex(where: { $0.0 == key }) else {
            members.append((key, value))
            return
        }
        members[index].1 = value
        var position = members.count - 1
        while position > index {
            if members[position].0 == key { members.remove(at: position) }
            position -= 1
        }
    }
}

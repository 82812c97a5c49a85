import Archive
import Dispatch
import FileSystemKit
import SessionFormats
import SessionModel

/// A large Firefox desktop session file whose JSON is not kept once read: its bytes as read
/// (mozLz4, a few percent of the JSON's size), decoded again when a rewrite asks for a part of it
/// as written (`RawJSON.deferred`). The windows, tabs and entries read from it stay in the model,
/// so validate, inspect and report never decode it twice; a command that reads many such files
/// holds one's JSON at a time (`SessionstoreFile.largeDecodes`).
public final class DeferredSessionstore: @unchecked Sendable {
    /// The file's bytes, its name, and how Firefox reads it (mozLz4 or plain).
    let bytes: [UInt8]
    let file: String
    let compressed: Bool?
    /// Tells sources apart in the cache (an object's address may be reused once it is freed).
    let serial: Int

    /// Guards `nextSerial` and `cached`.
    private static let lock = DispatchSemaphore(value: 1)
    nonisolated(unsafe) private static var nextSerial = 0
    /// The document decoded last, by its source's serial: a rewrite asks for many parts of one
    /// file in a row. One at a time, so memory stays that of one file.
    nonisolated(unsafe) private static var cached: (serial: Int, document: SessionstoreDocument?)?

    init(bytes: [UInt8], file: String, compressed: Bool?) {
        self.bytes = bytes
        self.file = file
        self.compressed = compressed
        DeferredSessionstore.lock.wait()
        DeferredSessionstore.nextSerial += 1
        serial = DeferredSessionstore.nextSerial
        DeferredSessionstore.lock.signal()
    }

    /// The part of the document as the file holds it (`null` if it is no longer there, which a
    /// file's bytes kept in memory cannot make happen).
    func value(of part: SessionstorePart) -> JSONValue {
        guard let document = document() else { return .null }
        return part.raw(in: document)?.value ?? .null
    }

    /// The file's document decoded again, whole (nothing deferred), from the cache when it was the last one asked for.
    private func document() -> SessionstoreDocument? {
        DeferredSessionstore.lock.wait()
        let hit = DeferredSessionstore.cached.flatMap { $0.serial == serial ? $0 : nil }
        DeferredSessionstore.lock.signal()
        if let hit { return hit.document }
        // One large file decoded at a time, as a read does (nothing holding the gate asks for a part).
        SessionstoreFile.largeDecodes.wait()
        let document = SessionstoreFile.decode(bytes, file: file, compressed: compressed, deferringLarge: false).document
        SessionstoreFile.largeDecodes.signal()
        DeferredSessionstore.lock.wait()
        DeferredSessionstore.cached = (serial, document)
        DeferredSessionstore.lock.signal()
        return document
    }

    /// `document` with every window's, tab's and its own JSON deferred to `source`.
    static func deferring(_ document: SessionstoreDocument, to source: DeferredSessionstore) -> SessionstoreDocument {
        var document = document
        document.rawJSON = .deferred(source, .document)
        for closed in [false, true] {
            var windows = closed ? document.closedWindows : document.windows
            for index in windows.indices {
                windows[index].rawJSON = .deferred(source, .window(closed: closed, index: index))
                for tab in windows[index].tabs.indices {
                    windows[index].tabs[tab].rawJSON = .deferred(
                        source, .tab(closedWindow: closed, window: index, closedTab: false, index: tab))
                }
                for tab in windows[index].closedTabs.indices {
                    windows[index].closedTabs[tab].rawJSON = .deferred(
                        source, .tab(closedWindow: closed, window: index, closedTab: true, index: tab))
                }
            }
            if closed { document.closedWindows = windows } else { document.windows = windows }
        }
        return document
    }
}

/// Where a deferred part of a session document is: the document, a window, or a tab of one.
public enum SessionstorePart: Sendable, Equatable {
    case document
    /// A window of `windows`, or of `_closedWindows` (`closed`).
    case window(closed: Bool, index: Int)
    /// A tab of such a window: one of its `tabs`, or of its `_closedTabs` (`closedTab`).
    case tab(closedWindow: Bool, window: Int, closedTab: Bool, index: Int)

    /// The part's JSON in `document` (read whole); nil when the document has no such part.
    func raw(in document: SessionstoreDocument) -> RawJSON? {
        switch self {
        case .document: return document.rawJSON
        case .window(let closed, let index):
            let windows = closed ? document.closedWindows : document.windows
            return windows.indices.contains(index) ? windows[index].rawJSON : nil
        case .tab(let closedWindow, let window, let closedTab, let index):
            let windows = closedWindow ? document.closedWindows : document.windows
            guard windows.indices.contains(window) else { return nil }
            let tabs = closedTab ? windows[window].closedTabs : windows[window].tabs
            return tabs.indices.contains(index) ? tabs[index].rawJSON : nil
        }
    }
}

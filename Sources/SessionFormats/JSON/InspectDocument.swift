import Foundation
import SessionModel

/// The `sessionctl.inspect/1` JSON document: sessions to JSON for `inspect`, and back for `import`.
public enum InspectDocument {
    public static let schema = "sessionctl.inspect/1"

    /// The most tabs written in parallel at a time: only their bytes are held apart from the output.
    static let tabBatch = 512

    /// The pretty-printed document for `sessions`; with `history`, each tab carries its data.pb
    /// fields (null when unread).
    public static func document(_ sessions: [Session], history: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        write(sessions, history: history) { bytes += $0 }
        return bytes
    }

    /// Writes the document for `sessions` a part at a time through `emit` (the bytes of
    /// `document(_:history:)`), without holding all of them at once; tabs are written on every core.
    /// With `errors` (sessions that could not be read), a top-level `errors` array follows the
    /// sessions; without, the document is unchanged.
    /// With `browser`, a top-level `browser` names the family the sessions were read as.
    /// With `product`, `product` and `productEvidence` follow it: the browser of the family that
    /// wrote the input, and what says so.
    public static func write(
        _ sessions: [Session], errors: [ReadError] = [], history: Bool, browser: String? = nil, product: BrowserProduct? = nil,
        to emit: ([UInt8]) -> Void
    ) {
        var writer = JSONWriter(capacity: 1 << 17)
        writer.beginObject()
        writer.key("schema")
        writer.string(schema)
        if let browser {
            writer.key("browser")
            writer.string(browser)
        }
        if let product {
            writer.key("product")
            writer.string(product.name)
            writer.key("productEvidence")
            writer.string(product.evidence)
        }
        writer.key("sessions")
        writer.beginArray()
        for session in sessions {
            write(session, history: history, to: &writer, emit: emit)
        }
        writer.endArray()
        if !errors.isEmpty {
            writer.key("errors")
            writer.beginArray()
            for error in errors {
                writer.beginObject()
                writer.key("session")
                writer.string(error.session)
                writer.key("incognito")
                writer.bool(error.incognito)
                writer.key("file")
                writer.string(error.file)
                writer.key("offset")
                if let offset = error.offset { writer.int(Int64(offset)) } else { writer.null() }
                writer.key("message")
                writer.string(error.message)
                writer.key("next")
                writer.string(error.next)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        emit(writer.take())
    }

    static func write(_ session: Session, history: Bool, to writer: inout JSONWriter, emit: ([UInt8]) -> Void) {
        writer.beginObject()
        writer.key("id")
        writer.string(session.id)
        writer.key("incognito")
        writer.bool(session.incognito)
        writer.key("format")
        writer.string(session.format.rawValue)
        writer.key("activeIndex")
        writer.int(Int64(session.activeIndex))
        writer.key("pinnedCount")
        writer.int(Int64(session.pinnedCount))
        writer.key("tabs")
        writer.beginArray()
        let tabs = session.tabs
        let level = writer.level
        let batch = min(tabBatch, max(16, tabs.count / 8))
        for start in stride(from: 0, to: tabs.count, by: batch) {
            let written = OrderedParallelMap.map(Array(start..<min(start + batch, tabs.count))) { index in
                var tabWriter = JSONWriter(level: level, capacity: 1024)
                write(tabs[index], history: history, to: &tabWriter)
                return tabWriter.bytes
            }
            for bytes in written { writer.written(bytes) }
            if writer.bytes.count >= 1 << 17 { emit(writer.take()) }
        }
        writer.endArray()
        writer.key("groups")
        writer.beginArray()
        for group in session.groups { write(group, to: &writer) }
        writer.endArray()
        // Only where the format keeps them, so that other documents are unchanged.
        if !session.closedTabs.isEmpty {
            writer.key("closedTabs")
            writer.beginArray()
            for tab in session.closedTabs { write(tab, history: history, to: &writer) }
            writer.endArray()
        }
        if !session.closedWindows.isEmpty {
            writer.key("closedWindows")
            writer.beginArray()
            for window in session.closedWindows { write(window, history: history, to: &writer, emit: emit) }
            writer.endArray()
        }
        writer.endObject()
    }

    static func write(_ tab: Tab, history withHistory: Bool, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.int(Int64(tab.id))
        writer.key("title")
        writer.string(tab.title)
        writer.key("url")
        writer.string(tab.url)
        writer.key("creationTime")
        writer.string(tab.creationTime.iso8601)
        writer.key("lastActiveTime")
        writer.string(tab.lastActiveTime.iso8601)
        if let sinceBoot = tab.lastActiveSinceBoot {
            // A monotonic clock: no date, the time since the machine started and the clock named.
            writer.key("lastActiveClock")
            writer.string("monotonic")
            writer.key("lastActiveSinceBootMicroseconds")
            writer.int(sinceBoot)
        }
        writer.key("navigationItemCount")
        writer.int(Int64(tab.navigationItemCount))
        writer.key("opener")
        if let opener = tab.opener {
            writer.beginObject()
            writer.key("index")
            writer.int(Int64(opener.index))
            writer.key("navigationIndex")
            writer.int(Int64(opener.navigationIndex))
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("pinned")
        writer.bool(tab.pinned)
        if let stable = tab.stableIdentifier {
            writer.key("stableIdentifier")
            writer.string(stable)
        }
        if tab.incognito {
            writer.key("incognito")
            writer.bool(true)
        }
        if tab.salvaged {
            writer.key("salvaged")
            writer.bool(true)
        }
        if withHistory { writeHistory(of: tab, to: &writer) }
        writer.endObject()
    }

    /// The data.pb members of a tab: hasOpener, userAgent, history and certificates (null when unread).
    static func writeHistory(of tab: Tab, to writer: inout JSONWriter) {
        guard let history = tab.history else {
            let keys: [StaticString] = ["hasOpener", "userAgent", "history"]
            for key in keys {
                writer.key(key)
                writer.null()
            }
            return
        }
        writer.key("hasOpener")
        writer.bool(history.hasOpener)
        writer.key("userAgent")
        write(history.userAgent, to: &writer)
        writer.key("history")
        writer.beginObject()
        writer.key("lastCommittedIndex")
        writer.int(Int64(history.lastCommittedIndex))
        writer.key("items")
        writer.beginArray()
        for item in history.items { write(item, to: &writer) }
        writer.endArray()
        writer.endObject()
        guard !history.certificates.isEmpty else { return }
        writer.key("certificates")
        writer.beginArray()
        for record in history.certificates {
            writer.beginObject()
            writer.key("host")
            writer.string(record.host)
            writer.key("status")
            writer.int(Int64(record.status))
            writer.key("certificate")
            writer.string(Data(record.certificate).base64EncodedString())
            writer.endObject()
        }
        writer.endArray()
    }

    static func write(_ item: NavigationItem, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("url")
        writer.string(item.url)
        writer.key("virtualURL")
        writer.string(item.virtualURL)
        writer.key("title")
        writer.string(item.title)
        writer.key("timestamp")
        writer.string(item.timestamp.iso8601)
        writer.key("userAgent")
        write(item.userAgent, to: &writer)
        writer.key("referrer")
        if let referrer = item.referrer {
            writer.beginObject()
            writer.key("url")
            writer.string(referrer.url)
            writer.key("policy")
            write(referrer.policy, to: &writer)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("headers")
        writer.beginArray()
        for header in item.headers {
            writer.beginObject()
            writer.key("name")
            writer.string(header.name)
            writer.key("value")
            writer.string(header.value)
            writer.endObject()
        }
        writer.endArray()
        if !item.securityScopedFileResource.isEmpty {
            writer.key("securityScopedFileResource")
            writer.string(Data(item.securityScopedFileResource).base64EncodedString())
        }
        writer.endObject()
    }

    static func write(_ group: TabGroup, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("start")
        writer.int(Int64(group.start))
        writer.key("count")
        writer.int(Int64(group.count))
        writer.key("title")
        writer.string(group.title)
        writer.key("color")
        write(group.color, to: &writer)
        writer.key("collapsed")
        writer.bool(group.collapsed)
        writer.key("id")
        writer.string(group.id?.hex)
        writer.endObject()
    }

    /// An enum as its lowerCamel name, or as its number when out of range.
    static func write<E: ChromeEnum>(_ value: E, to writer: inout JSONWriter) {
        if value.isKnown {
            writer.string(value.name)
        } else {
            writer.int(Int64(value.rawValue))
        }
    }
}

import FileSystemKit
import SessionFormats
import SessionModel

extension FirefoxWindowData {
    /// The window as a model session: its tabs in order (each keeping its UUID as its stable
    /// identifier and its privacy as the tab's), the tab `activeTabId` names active.
    ///
    /// Firefox tabs have no numeric id: each is numbered by its position from 1. A tab's history is
    /// its WebKit session state where `states` holds one (WebKit keeps no times: each item is
    /// stamped with the tab's last use); its item count is the history's length, else 1 for the
    /// page the tab opens (0 with none).
    public func session(id: SessionID, states: [String: WebKitSessionState]? = nil) -> Session {
        var active: Int32 = -1
        let activeKey = activeTabID.uppercased()
        var tabs: [Tab] = []
        tabs.reserveCapacity(self.tabs.count)
        for (index, data) in self.tabs.enumerated() {
            if active < 0, data.id.uppercased() == activeKey { active = Int32(clamping: index) }
            let lastUsed = FirefoxTime.timestamp(data.lastUsedTime)
            let history = states?[data.id].map { $0.history(time: lastUsed) }
            tabs.append(
                Tab(
                    id: Int32(clamping: index + 1), title: data.title ?? "", url: data.siteURL,
                    creationTime: FirefoxTime.timestamp(data.createdAtTime), lastActiveTime: lastUsed,
                    navigationItemCount: history.map { Int32(clamping: $0.items.count) } ?? (data.siteURL.isEmpty ? 0 : 1),
                    history: history, stableIdentifier: data.id, incognito: data.isPrivate))
        }
        return Session(id: id, incognito: false, format: .windowData, activeIndex: active, pinnedCount: 0, tabs: tabs)
    }
}

/// Firefox for iOS's times: Foundation's `Date` as its encoder writes it, seconds since
/// 2001-01-01 00:00 UTC.
public enum FirefoxTime {
    /// Seconds from the Unix epoch to 2001-01-01 00:00 UTC.
    public static let referenceOffset: Double = 978_307_200

    /// The model timestamp of a time in seconds since 2001 (null when absent, not finite or
    /// out of the model's range).
    public static func timestamp(_ seconds: Double?) -> Timestamp {
        guard let seconds, seconds.isFinite else { return .null }
        let micros = (seconds + referenceOffset) * 1_000_000
        // Within a Timestamp's range, with room for its epoch offset.
        guard abs(micros) < 9.0e18, let unix = Int64(exactly: micros.rounded()) else { return .null }
        return Timestamp(unixMicroseconds: unix)
    }

    /// A model timestamp as seconds since 2001 (nil for the null timestamp).
    public static func seconds(_ timestamp: Timestamp) -> Double? {
        timestamp.isNull ? nil : Double(timestamp.unixMicroseconds) / 1_000_000 - referenceOffset
    }
}

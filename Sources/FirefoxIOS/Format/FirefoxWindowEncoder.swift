import FileSystemKit
import SessionFormats
import SessionModel

/// Writes a window file as Firefox for iOS reads it: one compact JSON object of `WindowData`, its
/// tabs' known keys then the keys kept from the file read.
public enum FirefoxWindowEncoder {
    /// The bytes of `window`'s file.
    public static func encode(_ window: FirefoxWindowData) -> [UInt8] {
        document(window).serializedBytes(pretty: false)
    }

    /// The JSON value of `window`.
    public static func document(_ window: FirefoxWindowData) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(window.id))]
        if let isPrimary = window.isPrimary { members.append(("isPrimary", .bool(isPrimary))) }
        members.append(("activeTabId", .string(window.activeTabID)))
        members.append(("tabData", .array(window.tabs.map(document))))
        members += window.others.map { ($0.key, $0.value) }
        return .object(members)
    }

    /// The JSON value of one tab.
    public static func document(_ tab: FirefoxTabData) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(tab.id))]
        if let title = tab.title { members.append(("title", .string(title))) }
        members.append(("siteUrl", .string(tab.siteURL)))
        if let favicon = tab.faviconURL { members.append(("faviconURL", .string(favicon))) }
        members.append(("isPrivate", .bool(tab.isPrivate)))
        if let time = tab.lastUsedTime { members.append(("lastUsedTime", .double(time))) }
        if let time = tab.createdAtTime { members.append(("createdAtTime", .double(time))) }
        if let group = tab.groupData { members.append(("tabGroupData", group)) }
        if let session = tab.temporaryDocumentSession { members.append(("temporaryDocumentSession", session)) }
        members += tab.others.map { ($0.key, $0.value) }
        return .object(members)
    }
}

import FileSystemKit
import SessionFormats
import SessionModel

/// Reads Firefox for iOS window files tolerantly: every tab that decodes is kept, a damaged file
/// yields its complete tabs before the damage, and what Firefox's strict decoder would refuse is
/// reported rather than thrown.
public enum FirefoxWindowDecoder {
    /// Decodes the bytes of a `window-<UUID>` file.
    public static func decode(_ bytes: [UInt8]) -> FirefoxWindowFile {
        let salvage = JSONParser.salvage(bytes)
        guard let value = salvage.value else { return FirefoxWindowFile(window: nil, damage: salvage.damage) }
        guard case .object(let members) = value else {
            return FirefoxWindowFile(
                window: nil, damage: salvage.damage, refusals: [FirefoxRefusal(path: [], reason: "not a JSON object")])
        }
        var refusals: [FirefoxRefusal] = []
        var window = FirefoxWindowData(id: "", activeTabID: "", tabs: [])
        var cutTab: FirefoxTabData?
        var seen = Set<String>()
        for (key, member) in members where seen.insert(key).inserted {
            switch key {
            case "id": window.id = uuid(member, at: [.key(key)], into: &refusals)
            case "activeTabId": window.activeTabID = uuid(member, at: [.key(key)], into: &refusals)
            case "isPrimary":
                // Read by the first versions alone, ignored since: a value of another type is kept as it is.
                if case .bool(let flag) = member { window.isPrimary = flag } else { window.others.append(JSONMember(key, member)) }
            case "tabData":
                guard case .array(let elements) = member else {
                    refusals.append(FirefoxRefusal(path: [.key(key)], reason: "not an array of tabs"))
                    continue
                }
                for (index, element) in elements.enumerated() {
                    let path: [JSONPathComponent] = [.key(key), .index(index)]
                    if let damage = salvage.damage, !damage.leavesWhole(path) {
                        var ignored: [FirefoxRefusal] = []
                        if let tab = self.tab(element, at: path, into: &ignored), !tab.id.isEmpty { cutTab = tab }
                        continue
                    }
                    if let tab = self.tab(element, at: path, into: &refusals) { window.tabs.append(tab) }
                }
            default: window.others.append(JSONMember(key, member))
            }
        }
        if salvage.damage == nil {
            for required in ["id", "activeTabId", "tabData"] where !seen.contains(required) {
                refusals.append(FirefoxRefusal(path: [.key(required)], reason: "missing"))
            }
        }
        return FirefoxWindowFile(window: window, cutTab: cutTab, damage: salvage.damage, refusals: refusals)
    }

    /// One tab object; nil when the element is not an object at all.
    static func tab(_ value: JSONValue, at path: [JSONPathComponent], into refusals: inout [FirefoxRefusal]) -> FirefoxTabData? {
        guard case .object(let members) = value else {
            refusals.append(FirefoxRefusal(path: path, reason: "not a tab object"))
            return nil
        }
        var tab = FirefoxTabData(id: "", siteURL: "")
        var seen = Set<String>()
        for (key, member) in members where seen.insert(key).inserted {
            let at = path + [.key(key)]
            switch key {
            case "id": tab.id = uuid(member, at: at, into: &refusals)
            case "title": tab.title = optionalString(member, at: at, into: &refusals)
            case "siteUrl":
                if case .string(let url) = member {
                    tab.siteURL = url
                } else {
                    refusals.append(FirefoxRefusal(path: at, reason: "not a string"))
                }
            case "faviconURL": tab.faviconURL = optionalString(member, at: at, into: &refusals)
            case "isPrivate":
                if case .bool(let flag) = member {
                    tab.isPrivate = flag
                } else {
                    refusals.append(FirefoxRefusal(path: at, reason: "not true or false"))
                }
            case "lastUsedTime": tab.lastUsedTime = date(member, at: at, into: &refusals)
            case "createdAtTime": tab.createdAtTime = date(member, at: at, into: &refusals)
            case "tabGroupData":
                if case .object(let fields) = member {
                    tab.groupData = member
                    // Each field an optional string (search term, URLs, the timer state's name).
                    for (field, value) in fields { _ = optionalString(value, at: at + [.key(field)], into: &refusals) }
                } else if member != .null {
                    refusals.append(FirefoxRefusal(path: at, reason: "not an object"))
                }
            case "temporaryDocumentSession":
                // A dictionary of URLs to URLs, which Foundation writes as an array of keys and values in turn.
                if case .array(let urls) = member {
                    tab.temporaryDocumentSession = member
                    let strings = urls.allSatisfy { value in
                        if case .string = value { return true }
                        return false
                    }
                    if urls.count % 2 != 0 || !strings {
                        refusals.append(FirefoxRefusal(path: at, reason: "not pairs of URL strings"))
                    }
                } else if member != .null {
                    refusals.append(FirefoxRefusal(path: at, reason: "not an array"))
                }
            default: tab.others.append(JSONMember(key, member))
            }
        }
        for required in ["id", "siteUrl", "isPrivate", "lastUsedTime", "createdAtTime"] where !seen.contains(required) {
            refusals.append(FirefoxRefusal(path: path + [.key(required)], reason: "missing"))
        }
        return tab
    }

    /// A UUID string (kept as written even when Foundation would refuse it, with the refusal).
    private static func uuid(_ value: JSONValue, at path: [JSONPathComponent], into refusals: inout [FirefoxRefusal]) -> String {
        guard case .string(let text) = value else {
            refusals.append(FirefoxRefusal(path: path, reason: "not a string"))
            return ""
        }
        if !FirefoxUUID.isValid(text) { refusals.append(FirefoxRefusal(path: path, reason: "not a UUID")) }
        return text
    }

    /// A string that may be absent or null.
    private static func optionalString(_ value: JSONValue, at path: [JSONPathComponent], into refusals: inout [FirefoxRefusal]) -> String? {
        switch value {
        case .string(let text): return text
        case .null: return nil
        default:
            refusals.append(FirefoxRefusal(path: path, reason: "not a string"))
            return nil
        }
    }

    /// A date: seconds since 2001-01-01 UTC, any JSON number (one past a Double's range clamped).
    private static func date(_ value: JSONValue, at path: [JSONPathComponent], into refusals: inout [FirefoxRefusal]) -> Double? {
        switch value {
        case .int(let seconds): return Double(seconds)
        // Foundation reads a number past a Double's range as infinity; kept as the largest Double,
        // which a rewrite can write and Foundation reads back.
        case .double(let seconds): return seconds.isFinite ? seconds : seconds > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
        default:
            refusals.append(FirefoxRefusal(path: path, reason: "not a number of seconds"))
            return nil
        }
    }
}

import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// The preferences of a Firefox desktop profile (`prefs.js`) that decide whether and from what it
/// restores a session, read as Firefox writes them: one `user_pref("name", value);` a line.
public struct FirefoxPrefs: Sendable, Equatable {
    /// A preference's value.
    public enum Value: Sendable, Equatable {
        case bool(Bool)
        case int(Int64)
        case string(String)
    }

    /// Every `user_pref` read, by name (the last one wins, as in Firefox).
    public var values: [String: Value]

    public init(values: [String: Value] = [:]) {
        self.values = values
    }

    /// Reads the text of a prefs.js; lines that are not a `user_pref` call it can read are skipped.
    public static func parse(_ bytes: [UInt8]) -> FirefoxPrefs {
        var prefs = FirefoxPrefs()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            var scanner = Scanner(bytes: Array(line))
            guard scanner.take("user_pref("), let name = scanner.string(), scanner.take(","), let value = scanner.value() else { continue }
            prefs.values[name] = value
        }
        return prefs
    }

    /// `browser.startup.page`: 3 restores the session at every launch; Firefox's default is 1.
    public var startupPage: Int64 {
        if case .int(let page)? = values["browser.startup.page"] { return page }
        return 1
    }

    /// `browser.sessionstore.resume_from_crash`: restore after a crash (Firefox's default: true).
    public var resumeFromCrash: Bool {
        if case .bool(let flag)? = values["browser.sessionstore.resume_from_crash"] { return flag }
        return true
    }

    /// `browser.sessionstore.resume_session_once`: restore at the next launch only.
    public var resumeSessionOnce: Bool {
        if case .bool(let flag)? = values["browser.sessionstore.resume_session_once"] { return flag }
        return false
    }

    /// `browser.sessionstore.max_resumed_crashes`: crashes in a row after which Firefox offers
    /// the session on a page instead of restoring it (Firefox's default: 1; -1: never).
    public var maxResumedCrashes: Int64 {
        if case .int(let count)? = values["browser.sessionstore.max_resumed_crashes"] { return count }
        return 1
    }

    /// `browser.sessionstore.upgradeBackup.latestBuildID`: the build whose upgrade backup Firefox
    /// tries last; none, and it never reads an upgrade backup.
    public var upgradeBackupBuild: String? {
        if case .string(let build)? = values["browser.sessionstore.upgradeBackup.latestBuildID"], !build.isEmpty { return build }
        return nil
    }

    /// Whether Firefox restores the session at every launch, crash or not.
    public var restoresAlways: Bool { resumeSessionOnce || startupPage == 3 }

    /// Reads the pieces of one `user_pref(...)` line.
    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        mutating func skipSpace() {
            while offset < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(bytes[offset]) { offset += 1 }
        }

        mutating func take(_ text: String) -> Bool {
            skipSpace()
            let needle = Array(text.utf8)
            guard bytes.count - offset >= needle.count, bytes[offset..<offset + needle.count].elementsEqual(needle) else { return false }
            offset += needle.count
            return true
        }

        /// A double-quoted string with backslash escapes.
        mutating func string() -> String? {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
            offset += 1
            var text: [UInt8] = []
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
                if byte == UInt8(ascii: "\\"), offset < bytes.count {
                    text.append(bytes[offset])
                    offset += 1
                } else {
                    text.append(byte)
                }
            }
            return nil
        }

        mutating func value() -> Value? {
            skipSpace()
            if let text = string() { return .string(text) }
            if take("true") { return .bool(true) }
            if take("false") { return .bool(false) }
            var digits: [UInt8] = []
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") {
                digits.append(bytes[offset])
                offset += 1
            }
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                digits.append(bytes[offset])
                offset += 1
            }
            return Int64(String(decoding: digits, as: UTF8.self)).map(Value.int)
        }
    }
}

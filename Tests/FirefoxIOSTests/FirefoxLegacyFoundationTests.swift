import Foundation
import TestSupport
import Testing

@testable import FirefoxIOS
@testable import SessionFormats

/// `loadsInFirefox` held to Foundation's own property-list decoder: the tabs of a Codable archive
/// as `PropertyListEncoder` writes them, each key of each tab removed or given a value of another
/// type, archived as `NSKeyedArchiver.encodeEncodable` archives them and decoded by sessionctl, and
/// decoded by `PropertyListDecoder` into Firefox's `LegacySavedTab` as its Codable types declare it.
@Suite struct FirefoxLegacyFoundationTests {
    init() { Browsers.install() }

    struct StrictTab: Decodable {
        let isSelected: Bool
        let title: String?
        let url: URL?
        let isPrivate: Bool
        let sessionData: StrictSession?
        let screenshotUUID: UUID?
        let faviconURL: String?
        let uuid: String?
        let tabGroupData: StrictGroup?
        let createdAt: UInt64?
        let hasHomeScreenshot: Bool

        enum CodingKeys: String, CodingKey {
            case isSelected, title, url, isPrivate, sessionData, screenshotUUID, faviconURL, tabGroupData, createdAt, hasHomeScreenshot
            case uuid = "UUID"
        }
    }

    struct StrictSession: Decodable {
        let currentPage: Int
        let lastUsedTime: UInt64
        let urls: [URL]
    }

    struct StrictGroup: Decodable {
        let tabAssociatedSearchTerm: String
        let tabAssociatedSearchUrl: String
        let tabAssociatedNextUrl: String
        let tabHistoryCurrentState: String
    }

    static func url(_ relative: String, base: String? = nil) -> PlistValue {
        var members: [String: PlistValue] = ["relative": .string(relative)]
        if let base { members["base"] = url(base) }
        return .dictionary(members)
    }

    /// The fixture's three tabs as `PropertyListEncoder` writes them.
    static let tabs: [[String: PlistValue]] = [
        [
            "isSelected": .bool(true), "title": .string("Mozilla"), "url": url("https://www.mozilla.org/en-US/"), "isPrivate": .bool(false),
            "sessionData": .dictionary([
                "currentPage": .integer(-1), "lastUsedTime": .integer(1_677_665_730_250),
                "urls": .array([url("https://www.google.com/search?q=mozilla"), url("https://www.mozilla.org/en-US/")])
            ]),
            "screenshotUUID": .string("0F1E2D3C-4B5A-4968-8776-655443322110"), "faviconURL": .string("https://www.mozilla.org/favicon.ico"),
            "UUID": .string("6d1a2f70"), "createdAt": .integer(1_676_880_000_000), "hasHomeScreenshot": .bool(false)
        ],
        ["isSelected": .bool(false), "isPrivate": .bool(true), "hasHomeScreenshot": .bool(false)],
        [
            "isSelected": .bool(false), "isPrivate": .bool(false), "hasHomeScreenshot": .bool(true),
            "url": url("firefox-ios", base: "https://github.com/mozilla-mobile/"),
            "tabGroupData": .dictionary([
                "tabAssociatedSearchTerm": .string("firefox ios"), "tabAssociatedSearchUrl": .string("https://www.google.com/"),
                "tabAssociatedNextUrl": .string("https://github.com/"), "tabHistoryCurrentState": .string("openURLOnly")
            ])
        ]
    ]

    /// `value` archived as NSKeyedArchiver archives property-list objects: containers as
    /// `NSArray` and `NSDictionary` objects, plain values in `$objects`.
    static func archived(_ value: PlistValue, _ builder: inout KeyedArchiveBuilder) -> PlistValue {
        switch value {
        case .dictionary(let members):
            let entries = members.sorted { $0.key < $1.key }.map { ($0.key, archived($0.value, &builder)) }
            return .uid(builder.dictionary(entries))
        case .array(let elements):
            let uids = elements.map { element -> UInt64 in
                if case .uid(let uid) = archived(element, &builder) { return uid }
                return builder.value(element)
            }
            return .uid(builder.array(uids))
        default: return value
        }
    }

    static func archive(_ tabs: [[String: PlistValue]]) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let top = archived(.array(tabs.map(PlistValue.dictionary)), &builder)
        return BinaryPlistWriter.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["tabs": top]),
                "$objects": .array(builder.objects)
            ]))
    }

    /// The Foundation object of a property-list value.
    static func foundation(_ value: PlistValue) -> Any {
        switch value {
        case .bool(let flag): return flag
        case .integer(let number): return number
        case .real(let number): return number
        case .string(let text): return text
        case .data(let bytes): return Data(bytes)
        case .array(let elements): return elements.map(foundation)
        case .dictionary(let members): return members.mapValues(foundation)
        default: return ""
        }
    }

    static func foundationDecodes(_ tabs: [[String: PlistValue]]) throws -> Bool {
        let data = try PropertyListSerialization.data(fromPropertyList: tabs.map { $0.mapValues(foundation) }, format: .binary, options: 0)
        return (try? PropertyListDecoder().decode([StrictTab].self, from: data)) != nil
    }

    /// Each tab with one key removed or given each replacement, nested keys included.
    static func variants() -> [(String, [[String: PlistValue]])] {
        let replacements: [PlistValue] = [
            .integer(1), .integer(-5), .real(2.0), .real(2.5), .string("x"), .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .bool(true),
            .data([1, 2]), .array([]), .dictionary([:]), url("https://a.example/"), url("")
        ]
        var result: [(String, [[String: PlistValue]])] = [("as written", tabs)]
        for (index, tab) in tabs.enumerated() {
            func add(_ name: String, _ changed: [String: PlistValue]) {
                var all = tabs
                all[index] = changed
                result.append(("tabs[\(index)].\(name)", all))
            }
            for key in tab.keys.sorted() + ["title", "createdAt"] {
                var removed = tab
                removed[key] = nil
                add("\(key) removed", removed)
                for replacement in replacements {
                    var changed = tab
                    changed[key] = replacement
                    add("\(key) = \(replacement)", changed)
                }
            }
            for container in ["sessionData", "tabGroupData"] {
                guard case .dictionary(let members)? = tab[container] else { continue }
                for key in members.keys.sorted() {
                    for replacement in [nil] + replacements {
                        var nested = members
                        nested[key] = replacement
                        var changed = tab
                        changed[container] = .dictionary(nested)
                        add("\(container).\(key) = \(replacement.map { "\($0)" } ?? "removed")", changed)
                    }
                }
            }
        }
        return result
    }

    @Test func ourVerdictIsFoundations() throws {
        var loads = 0
        for (name, tabs) in Self.variants() {
            let archive = try FirefoxLegacyArchive.decode(Self.archive(tabs), file: "a")
            let foundation = try Self.foundationDecodes(tabs)
            #expect(archive.loadsInFirefox == foundation, "\(name): \(archive.refusal ?? "loads"), Foundation \(foundation)")
            #expect(archive.tabs.count == tabs.count && archive.damage.isEmpty, "\(name)")
            if foundation { loads += 1 }
        }
        #expect(loads > 20)
    }
}

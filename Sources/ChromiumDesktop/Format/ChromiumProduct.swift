import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Which browser of the Chromium family wrote a profile (Chrome, Edge, Brave, Vivaldi, Opera,
/// Chromium), and how it is known: the profile's place, its `Preferences` or `Local State`, or
/// the records of its session files. Each is read with its own numbering of commands
/// (`SNSSDialect`).
public enum ChromiumProduct: String, Sendable, CaseIterable {
    case chrome
    case chromium
    case edge
    case brave
    case vivaldi
    case opera

    /// The browser's name for people.
    public var displayName: String {
        switch self {
        case .chrome: "Google Chrome"
        case .chromium: "Chromium"
        case .edge: "Microsoft Edge"
        case .brave: "Brave"
        case .vivaldi: "Vivaldi"
        case .opera: "Opera"
        }
    }

    /// How its session files number their commands.
    public var dialect: SNSSDialect {
        switch self {
        case .edge: .edge
        case .vivaldi: .vivaldi
        case .chrome, .chromium, .brave, .opera: .chromium
        }
    }

    /// Where each product keeps its user-data directory by default (Windows, macOS, Linux), as
    /// runs of directory names, compared without case.
    static let places: [(product: ChromiumProduct, names: [String])] = [
        (.edge, ["microsoft", "edge", "user data"]), (.edge, ["application support", "microsoft edge"]),
        (.edge, [".config", "microsoft-edge"]), (.edge, [".config", "microsoft-edge-beta"]),
        (.edge, [".config", "microsoft-edge-dev"]),
        (.brave, ["bravesoftware", "brave-browser"]),
        (.vivaldi, ["vivaldi", "user data"]), (.vivaldi, ["application support", "vivaldi"]), (.vivaldi, [".config", "vivaldi"]),
        (.opera, ["opera software", "opera stable"]), (.opera, ["application support", "com.operasoftware.opera"]),
        (.opera, [".config", "opera"]),
        (.chrome, ["google", "chrome", "user data"]), (.chrome, ["application support", "google", "chrome"]),
        (.chrome, [".config", "google-chrome"]),
        (.chromium, ["chromium", "user data"]), (.chromium, ["application support", "chromium"]), (.chromium, [".config", "chromium"])
    ]

    /// The product whose user-data directory a profile lies in, by the names of the directories
    /// above it (outermost first): the innermost of the browsers' default places that the path
    /// runs through (a directory merely named after a browser says nothing).
    public static func fromPlace(_ components: [String]) -> ChromiumProduct? {
        let names = components.map { $0.lowercased() }
        var found: (product: ChromiumProduct, end: Int)?
        for (product, run) in places where names.count >= run.count {
            for start in 0...(names.count - run.count) where Array(names[start..<(start + run.count)]) == run {
                let end = start + run.count
                if found.map({ end > $0.end }) ?? true { found = (product, end) }
            }
        }
        return found?.product
    }

    /// The product whose preferences these are (`Preferences` or `Local State`), by the
    /// top-level keys only it writes: `edge` (and `edge_*`), `brave`, `vivaldi`, `opera`.
    public static func fromPreferences(_ value: JSONValue) -> ChromiumProduct? {
        guard case .object(let members) = value else { return nil }
        let keys = Set(members.map(\.0))
        if keys.contains("edge") || keys.contains(where: { $0.hasPrefix("edge_") }) { return .edge }
        if keys.contains("brave") { return .brave }
        if keys.contains("vivaldi") { return .vivaldi }
        if keys.contains("opera") { return .opera }
        return nil
    }

    /// The product whose commands a session file's records hold, by ids only it writes: Edge's
    /// 131 and 132, both (one alone may be a damaged byte); nil when they say nothing. Vivaldi
    /// is told by its place and preferences alone: its own ids (21, 22) are Chromium's too.
    /// `ids` are those of records read before any damage.
    public static func fromRecords(_ ids: some Sequence<UInt8>) -> ChromiumProduct? {
        var seen = Set<UInt8>()
        for id in ids where id == 131 || id == 132 {
            seen.insert(id)
            if seen.count == 2 { return .edge }
        }
        return nil
    }
}

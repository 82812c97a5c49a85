import SessionForensics
import SessionFormats
import SessionModel

/// `enum-out-of-range`: user agents (0-3) and referrer policies (0-8) of data.pb outside their
/// ranges, on which Chrome stops (`NOTREACHED`) when it realizes the tab, not when it loads the
/// session. Group colours are `group-color-out-of-range` (`GroupRules`): Chrome shows them grey.
///
/// Values are found in the decoded model, so none is missed whatever else the file holds; the
/// wire scanner's findings supply the offset of each one.
enum EnumFindings {
    /// One out-of-range value: what holds it, its number, and its place on the wire.
    struct Value {
        /// Where in the history it is.
        enum Place: Equatable {
            /// The tab's user agent.
            case userAgent
            /// Navigation item `index`'s user agent.
            case itemUserAgent(Int)
            /// Navigation item `index`'s referrer policy.
            case referrerPolicy(Int)
        }

        var place: Place
        var owner: String
        var message: String
        var field: Int
        var value: Int32
    }

    /// The out-of-range values of a tab's history, in file order (what validate reports and
    /// repair sets within range).
    static func values(in history: TabHistory) -> [Value] {
        var values: [Value] = []
        if !history.userAgent.isKnown {
            values.append(
                Value(
                    place: .userAgent, owner: "the tab's user agent (0-3)", message: "WebStateStorage", field: 3,
                    value: history.userAgent.rawValue))
        }
        // Fields read in place: copying each item would retain and release all its strings.
        for index in history.items.indices {
            let userAgent = history.items[index].userAgent
            if !userAgent.isKnown {
                values.append(
                    Value(
                        place: .itemUserAgent(index), owner: "navigation item \(index)'s user agent (0-3)",
                        message: "NavigationItemStorage", field: 5,
                        value: userAgent.rawValue))
            }
            if let policy = history.items[index].referrer?.policy, !policy.isKnown {
                values.append(
                    Value(
                        place: .referrerPolicy(index), owner: "navigation item \(index)'s referrer policy (0-8)",
                        message: "ReferrerStorage", field: 2,
                        value: policy.rawValue))
            }
        }
        return values
    }

    /// Findings for `values`, each with the offset the scanner found for it (matched in file order).
    static func findings(_ values: [Value], scanned: [WireEnumOutOfRange], scope: FindingScope, tab: TabReference? = nil) -> [Finding] {
        var remaining = scanned[...]
        return values.map { value in
            var offset: Int?
            if let match = remaining.firstIndex(where: {
                $0.message == value.message && $0.field == value.field && Int32(truncatingIfNeeded: $0.value) == value.value
            }) {
                offset = remaining[match].offset
                remaining = remaining[(match + 1)...]
            }
            return scope.finding(
                .enumOutOfRange, tab: tab, offset: offset,
                "\(value.owner) is \(value.value); Chrome crashes when the tab is realized (opened), not when the session loads")
        }
    }
}

import SessionFormats

/// `enum-out-of-range`: the enum values the wire scanner found outside Chrome's ranges (Chrome crashes on them).
enum EnumFindings {
    /// A finding for one out-of-range value; `items` and `groups` are the offsets of the navigation
    /// items or tab groups, used to say which one holds it.
    static func finding(_ value: WireEnumOutOfRange, scope: FindingScope, tab: TabReference? = nil,
                        items: [Int] = [], groups: [Int] = []) -> Finding {
        let item = items.lastIndex { $0 <= value.offset }
        let group = groups.lastIndex { $0 <= value.offset }
        let owner: String
        switch (value.message, value.field) {
        case ("WebStateStorage", 3): owner = "the tab's user agent (0-3)"
        case ("NavigationItemStorage", 5): owner = "navigation item \(item.map(String.init) ?? "?")'s user agent (0-3)"
        case ("ReferrerStorage", 2): owner = "navigation item \(item.map(String.init) ?? "?")'s referrer policy (0-8)"
        case ("TabGroupStorage", 3): owner = "tab group \(group.map(String.init) ?? "?")'s colour (0-8)"
        default: owner = "\(value.message) field \(value.field)"
        }
        return scope.finding(.enumOutOfRange, tab: tab, offset: value.offset,
                             "\(owner) is \(value.value); Chrome crashes when it loads it")
    }
}

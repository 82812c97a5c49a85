import SessionModel

extension ChromeLoadSemantics.DropReason {
    /// The loading rule of Chrome's that drops the tab (its `LoadSessionStorage`).
    public var rule: String {
        switch self {
        case .noNavigationItems: return "an item without navigation items is dropped before restoration"
        case .duplicateID: return "an item repeating an earlier item's id is dropped"
        }
    }
}

extension ChromeLoadSemantics.Outcome {
    /// One line per tab that Chrome's loading rules take away, in whole or in part, naming the
    /// rule: dropped tabs, and restored tabs without a data.pb (their history is gone). Empty when
    /// the session is restored as stored or lost whole.
    public var shortenings: [String] {
        var lines = droppedTabs.map { "tab \($0.id): \($0.reason.rule)" }
        lines += tabsWithoutData.map { "tab \($0): listed without a data.pb, restored from its listed URL alone" }
        return lines
    }
}

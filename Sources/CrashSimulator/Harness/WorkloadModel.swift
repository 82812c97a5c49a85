/// The windows and tabs a workload's events say the user has, kept by the driver apart from the
/// store: what an acknowledged save must have put on disk, judged without asking the store.
///
/// Each tab is known by its label, window and current URL. A workload that starts from an
/// existing profile starts from the windows its first launch restored (the only thing taken from
/// the store: what the user had before the workload began). A crash takes the model back to what
/// the last acknowledged save held (the rest was never promised); a launch after as many crashes
/// during restore as the crash-loop limit finds every window set aside (Chrome's crash-loop rule);
/// everything else (moves, pins, groups, activation) changes no tab's presence or URL.
struct WorkloadModel {
    struct Tab: Equatable {
        /// `OTR/<session id>` or `<session id>`.
        var window: String
        var url: String
    }

    private(set) var tabs: [String: Tab] = [:]
    private var acknowledged: [String: Tab] = [:]

    mutating func open(_ label: String, window: String, url: String) { tabs[label] = Tab(window: window, url: url) }
    /// Takes the windows a profile the workload starts from restored to as the user's (what is on
    /// disk then counts as saved); their tabs get labels no workload uses.
    mutating func adopt(_ windows: [String: [String]]) {
        for (window, urls) in windows {
            for (index, url) in urls.enumerated() { tabs["\u{0}\(window)#\(index)"] = Tab(window: window, url: url) }
        }
        acknowledged = tabs
    }
    mutating func navigate(_ label: String, to url: String) { tabs[label]?.url = url }
    mutating func close(_ label: String) { tabs[label] = nil }
    mutating func closeAllIncognito() { tabs = tabs.filter { !$0.value.window.hasPrefix("OTR/") } }
    /// A save was acknowledged: everything up to now is promised.
    mutating func acknowledge() { acknowledged = tabs }
    /// The app crashed: only what was acknowledged is promised to come back.
    mutating func crash() { tabs = acknowledged }
    /// The crash-loop guard set every window aside at launch (the tabs are in `Backups/`, not live).
    mutating func setAsideAll() {
        tabs = [:]
        acknowledged = [:]
    }

    /// The labels of the incognito tabs the workload has open.
    var incognitoLabels: Set<String> { Set(tabs.filter { $0.value.window.hasPrefix("OTR/") }.keys) }

    /// Whether the workload changed a tab since the last acknowledged save.
    var hasUnsavedChanges: Bool { tabs != acknowledged }

    /// Each window's URLs, sorted (windows without tabs left out).
    var windows: [String: [String]] {
        var result: [String: [String]] = [:]
        for tab in tabs.values { result[tab.window, default: []].append(tab.url) }
        return result.mapValues { $0.sorted() }
    }
}

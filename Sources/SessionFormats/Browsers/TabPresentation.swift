import SessionModel

/// How a family's tabs are shown as text (`inspect`): what names a tab, which marks its tabs can
/// carry, and what file holds a tab's history.
public struct TabPresentation: Sendable, Equatable {
    /// Tabs are named by the browser's UUID for them (`stableIdentifier`) rather than by `#id`.
    public var namedByStableIdentifier: Bool
    /// Each tab is private or not on its own (`Tab.incognito`), marked `I`; Chrome for iOS keeps
    /// whole incognito sessions instead.
    public var marksPrivateTabs: Bool
    /// Tabs may be recovered from past where the browser stops reading (`Tab.salvaged`), marked `S`.
    public var marksSalvagedTabs: Bool
    /// What holds a tab's history, as a missing one is reported.
    public var historyFile: String

    public init(namedByStableIdentifier: Bool, marksPrivateTabs: Bool, marksSalvagedTabs: Bool, historyFile: String) {
        self.namedByStableIdentifier = namedByStableIdentifier
        self.marksPrivateTabs = marksPrivateTabs
        self.marksSalvagedTabs = marksSalvagedTabs
        self.historyFile = historyFile
    }
}

extension BrowserFamilies {
    /// How the tabs of a session of `format` are shown: its family's way (`UnrecognisedFamily`'s for a
    /// format no family reads).
    public static func presentation(of format: SessionFormat) -> TabPresentation {
        (all.first { $0.formats.contains(format) } ?? UnrecognisedFamily()).tabPresentation
    }
}

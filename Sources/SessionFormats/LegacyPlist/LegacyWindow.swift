import SessionModel

/// A `SessionWindowIOS` as session.plist stores it, before Chrome's silent repairs: the values
/// are kept raw (64-bit, possibly out of range) so that validation can say what Chrome changes.
public struct LegacyWindow: Sendable, Hashable {
    /// `NSNotFound` as Chrome stores it in `selectedIndex`.
    public static let notFound: Int64 = 2_147_483_647

    /// `selectedIndex` as stored; `notFound` (or NSIntegerMax) when no tab is selected.
    public var selectedIndex: Int64
    public var tabs: [LegacyTab]
    public var groups: [TabGroup]
    /// True when the file's root was an older `SessionIOS` wrapping this window.
    public var wrappedInSessionIOS: Bool
    /// Byte offset of the window object in the file (0 for a window built in memory).
    public var offset: Int
    /// How many windows the `SessionIOS` root held (1 unless `wrappedInSessionIOS`). Chrome reads
    /// a file only when it holds exactly one; this reader keeps the first for forensics.
    public var windowsInRoot: Int
    /// Class names of Chrome M57-M59 found in the objects Chrome decodes (`LegacyClass.retiredNames`):
    /// current Chrome cannot read such a file at all.
    public var retiredClassNames: [String]

    public init(
        selectedIndex: Int64 = LegacyWindow.notFound, tabs: [LegacyTab] = [], groups: [TabGroup] = [],
        wrappedInSessionIOS: Bool = false, offset: Int = 0, windowsInRoot: Int = 1, retiredClassNames: [String] = []
    ) {
        self.selectedIndex = selectedIndex
        self.tabs = tabs
        self.groups = groups
        self.wrappedInSessionIOS = wrappedInSessionIOS
        self.offset = offset
        self.windowsInRoot = windowsInRoot
        self.retiredClassNames = retiredClassNames
    }

    /// Why current Chrome cannot read this file at all, or nil when it can.
    public var unreadableByChrome: String? {
        if windowsInRoot != 1 {
            return "its SessionIOS root holds \(windowsInRoot) windows; Chrome reads a file only when it holds exactly one"
        }
        if !retiredClassNames.isEmpty {
            return
                "it uses the class name\(retiredClassNames.count == 1 ? "" : "s") \(retiredClassNames.joined(separator: ", ")) of Chrome M57-M59, which Chrome no longer decodes"
        }
        return nil
    }

    /// The number of tabs marked pinned, wherever they are: what Chrome's migration to the
    /// optimized format stores as the pinned count (the first that many tabs are then pinned).
    public var pinnedFlagCount: Int { tabs.count { $0.pinned } }

    /// True when `selectedIndex` means "none" (32-bit or 64-bit NSNotFound).
    public var selectsNothing: Bool { selectedIndex == LegacyWindow.notFound || selectedIndex == Int64.max }

}

/// A `CRWSessionStorage` (one tab) as stored, with its user data already split into pinned state and opener.
public struct LegacyTab: Sendable, Hashable {
    /// `uniqueIdentifier` as stored; nil when absent.
    public var uniqueIdentifier: Int64?
    /// `stableIdentifier`, a UUID string; nil when absent.
    public var stableIdentifier: String?
    /// `openedByDOM`.
    public var openedByDOM: Bool
    /// `lastCommittedItemIndex` (or the old `currentNavigationIndex`) as stored.
    public var lastCommittedItemIndex: Int64
    /// `entries`, oldest first.
    public var items: [NavigationItem]
    /// `userAgentKey` as stored (AUTOMATIC, NONE, MOBILE or DESKTOP); nil when absent.
    public var userAgentKey: String?
    public var creationTime: Timestamp
    public var lastActiveTime: Timestamp
    public var certificates: [CertificateRecord]
    /// `PinnedState` of the user data.
    public var pinned: Bool
    /// `OpenerIndex` and `OpenerNavigationIndex` of the user data (nil unless both are present).
    public var opener: Opener?
    /// Byte offset of the tab object in the file (0 for a tab built in memory).
    public var offset: Int
    /// The class of the first `entries` element that is not a navigation item, when there is one:
    /// Chrome then reads the tab with no entries at all (it is dropped).
    public var foreignEntry: String?
    /// The entries that are navigation items, when `foreignEntry` is set (Chrome reads none of
    /// them; a repair can keep them).
    public var salvagedItems: [NavigationItem] = []
    /// `lastCommittedItemIndex` re-indexed onto `salvagedItems`.
    public var salvagedLastCommittedItemIndex: Int64 = -1

    public init(
        uniqueIdentifier: Int64?, stableIdentifier: String? = nil, openedByDOM: Bool = false,
        lastCommittedItemIndex: Int64 = -1, items: [NavigationItem] = [], userAgentKey: String? = nil,
        creationTime: Timestamp = .null, lastActiveTime: Timestamp = .null, certificates: [CertificateRecord] = [],
        pinned: Bool = false, opener: Opener? = nil, offset: Int = 0
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.stableIdentifier = stableIdentifier
        self.openedByDOM = openedByDOM
        self.lastCommittedItemIndex = lastCommittedItemIndex
        self.items = items
        self.userAgentKey = userAgentKey
        self.creationTime = creationTime
        self.lastActiveTime = lastActiveTime
        self.certificates = certificates
        self.pinned = pinned
        self.opener = opener
        self.offset = offset
    }

    /// The tab id when it is one Chrome accepts (a positive int32), else nil.
    public var validID: TabID? {
        guard let uniqueIdentifier, uniqueIdentifier > 0, let id = Int32(exactly: uniqueIdentifier) else { return nil }
        return id
    }

    /// The tab's user agent: `userAgentKey` read as Chrome does (absent is automatic, unknown words none).
    public var userAgent: UserAgent {
        guard let userAgentKey else { return .automatic }
        return LegacyUserAgent.value(of: userAgentKey)
    }
}

/// The words the legacy format stores user agents as.
public enum LegacyUserAgent {
    /// The word of each `UserAgent` value, by number.
    public static let words = ["NONE", "AUTOMATIC", "MOBILE", "DESKTOP"]

    /// A word read as Chrome reads it: unknown words are `none`.
    public static func value(of word: String) -> UserAgent {
        words.firstIndex(of: word).map { UserAgent(rawValue: Int32($0)) } ?? .none
    }

    /// The word for a value; values out of range are written as NONE, which Chrome reads back as none.
    public static func word(for value: UserAgent) -> String {
        value.isKnown ? words[Int(value.rawValue)] : "NONE"
    }

    /// True when Chrome knows the word.
    public static func isKnown(_ word: String) -> Bool { words.contains(word) }
}

import FileSystemKit
import SessionFormats
import SessionModel

/// One window of Firefox for iOS as its tab store writes it (`window-data/window-<UUID>`): JSON of
/// Foundation's encoder, dates as seconds since 2001-01-01 UTC. Keys this version does not know
/// are kept in `others` so that a rewrite carries them.
public struct FirefoxWindowData: Sendable, Equatable {
    /// The window's UUID, as written.
    public var id: String
    /// The UUID of the tab selected when the window was saved (a fresh UUID, naming no tab, when
    /// none was).
    public var activeTabID: String
    /// `isPrimary`, written by the versions before several windows (nil when absent).
    public var isPrimary: Bool?
    /// The tabs in their order on screen, regular and private mixed.
    public var tabs: [FirefoxTabData]
    /// Members of the window object this reader does not know, in their order.
    public var others: [JSONMember]

    public init(id: String, activeTabID: String, isPrimary: Bool? = nil, tabs: [FirefoxTabData], others: [JSONMember] = []) {
        self.id = id
        self.activeTabID = activeTabID
        self.isPrimary = isPrimary
        self.tabs = tabs
        self.others = others
    }
}

/// One tab of a Firefox for iOS window file (`TabData`).
public struct FirefoxTabData: Sendable, Equatable {
    /// The tab's UUID (also the name of its `tab-session-data/tab-<UUID>` file).
    public var id: String
    public var title: String?
    /// The page's URL as a string (empty when the tab had none).
    public var siteURL: String
    public var faviconURL: String?
    public var isPrivate: Bool
    /// Seconds since 2001-01-01 UTC.
    public var lastUsedTime: Double?
    /// Seconds since 2001-01-01 UTC (absent in files of the first versions).
    public var createdAtTime: Double?
    /// `tabGroupData` (search term, search URL, next URL, timer state), as written.
    public var groupData: JSONValue?
    /// `temporaryDocumentSession`: local document URL and the online URL it came from, in pairs.
    public var temporaryDocumentSession: JSONValue?
    /// Members of the tab object this reader does not know, in their order.
    public var others: [JSONMember]

    public init(
        id: String, title: String? = nil, siteURL: String, faviconURL: String? = nil, isPrivate: Bool = false,
        lastUsedTime: Double? = nil, createdAtTime: Double? = nil, groupData: JSONValue? = nil,
        temporaryDocumentSession: JSONValue? = nil, others: [JSONMember] = []
    ) {
        self.id = id
        self.title = title
        self.siteURL = siteURL
        self.faviconURL = faviconURL
        self.isPrivate = isPrivate
        self.lastUsedTime = lastUsedTime
        self.createdAtTime = createdAtTime
        self.groupData = groupData
        self.temporaryDocumentSession = temporaryDocumentSession
        self.others = others
    }

    /// The search term of the tab's group, when the file names one.
    public var searchTerm: String? {
        if case .string(let term)? = groupData?["searchTerm"] { return term }
        return nil
    }
}

/// One member of a JSON object: its key and value.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

import SessionModel

/// Where a directory lies in a profile, by a family's layout alone (`BrowserFamily.place`): the
/// profile, and the one session whose directory it is when it is one.
public struct ProfilePlace: Sendable, Equatable {
    /// The profile directory.
    public var profile: String
    /// The session, when the directory was one session's.
    public var session: SessionID?
    /// Whether that session is incognito (false for a profile).
    public var incognito: Bool
    /// When the directory held the profile one level down (an unpacked bundle), its name there.
    public var foundInside: String?

    public init(profile: String, session: SessionID? = nil, incognito: Bool = false, foundInside: String? = nil) {
        self.profile = profile
        self.session = session
        self.incognito = incognito
        self.foundInside = foundInside
    }
}

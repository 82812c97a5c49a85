import Archive
import FileSystemKit
import SessionFormats
import SessionModel

extension LocatedInput {
    /// For a Firefox desktop profile: what its prefs.js and crash monitor say about restoring.
    public var firefoxDesktop: FirefoxDesktopSettings? {
        get { familySettings as? FirefoxDesktopSettings }
        set { familySettings = newValue }
    }
}

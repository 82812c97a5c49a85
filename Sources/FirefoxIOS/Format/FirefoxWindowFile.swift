import FileSystemKit
import SessionFormats
import SessionModel

/// What reading one Firefox for iOS window file found: the window as far as it reads, the damage
/// that cut it short, and why Firefox's own decoder would refuse it.
///
/// Firefox decodes a window file whole with Foundation's `JSONDecoder`: one missing key, one value
/// of the wrong type or one byte of damage and it reads nothing of the file (it then tries the
/// backup). This reader keeps every tab it can.
public struct FirefoxWindowFile: Sendable {
    /// The window with every tab read whole; nil when the file does not begin a JSON object.
    public var window: FirefoxWindowData?
    /// The tab the damage cut short, with what of it was read before (nil when none was cut or it
    /// had no id yet).
    public var cutTab: FirefoxTabData?
    /// The first error of a file that is not well-formed JSON.
    public var damage: JSONSalvage.Damage?
    /// Why Firefox's decoder refuses a well-formed file (each a key missing or of the wrong type).
    public var refusals: [FirefoxRefusal]

    /// Whether Firefox reads the file: well-formed, and every key it requires there and of its type.
    public var loadsInFirefox: Bool { window != nil && damage == nil && refusals.isEmpty }

    public init(
        window: FirefoxWindowData?, cutTab: FirefoxTabData? = nil, damage: JSONSalvage.Damage? = nil, refusals: [FirefoxRefusal] = []
    ) {
        self.window = window
        self.cutTab = cutTab
        self.damage = damage
        self.refusals = refusals
    }
}

/// One reason Firefox's decoder refuses a window file: where, and what is wrong there.
public struct FirefoxRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The value at fault, from the document's root (`.tabData[3].createdAtTime`).
    public var path: [JSONPathComponent]
    public var reason: String

    public init(path: [JSONPathComponent], reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.map(\.description).joined() + ": " + reason }
}

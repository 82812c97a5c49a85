import FileSystemKit
import SessionFormats
import SessionModel

/// Firefox for iOS's legacy tab archive (`tabsState.archive`, `codableTabsState.archive` in
/// `profile.profile/`), read tolerantly, with whether today's Firefox would migrate its tabs
/// (docs/firefox-ios-format.md, "Legacy archives").
///
/// Both files are NSKeyedArchiver binary property lists whose `$top` holds `tabs`. The shape is
/// told by the content, never by the file's name: `SavedTab` objects (NSCoding, the oldest
/// versions) or the dictionaries Codable's property-list encoder makes (from about version 106).
/// Every tab that reads is kept; one that does not is skipped and its damage recorded.
public struct FirefoxLegacyArchive: Sendable, Equatable {
    /// How the tabs were archived.
    public enum Shape: String, Sendable {
        /// `Client.SavedTab` objects with their NSCoding keys (`NSURL`, `NSUUID`, `Client.SessionData`).
        case savedTabObjects
        /// `NSKeyedArchiver.encodeEncodable`: each tab a dictionary of its Codable keys, a URL a
        /// dictionary `relative`/`base`, a UUID its string, a time an integer of milliseconds.
        case codable
    }

    /// The shape of the tabs (`.codable` for an archive with none: both shapes archive an empty
    /// array the same way).
    public var shape: Shape
    /// The tabs that read, in their order.
    public var tabs: [FirefoxLegacyTab]
    /// Each tab that could not be read: where its damage is and what it is.
    public var damage: [PlistDamage]
    /// The first reason today's Firefox would migrate no tab of the archive; nil when its decoder
    /// (`decodeDecodable([LegacySavedTab].self, forKey: "tabs")`, all or nothing) accepts it.
    public var refusal: String?

    /// Whether today's Firefox decodes the archive's tabs, all of them: Codable dictionaries, none
    /// damaged, each with the three booleans it requires and no value of another type (a UUID
    /// string that does not parse, a URL Foundation does not read, a negative time included).
    /// Firefox reads only `codableTabsState.archive`, and only once, for its migration.
    public var loadsInFirefox: Bool { refusal == nil }

    /// An archive of the given parts.
    public init(shape: Shape, tabs: [FirefoxLegacyTab], damage: [PlistDamage] = [], refusal: String? = nil) {
        self.shape = shape
        self.tabs = tabs
        self.damage = damage
        self.refusal = refusal
    }

    /// Why a `SavedTab` archive never loads in today's Firefox.
    static let savedTabRefusal =
        "its tabs are SavedTab objects (NSCoding, written before about version 106), which today's Firefox does not decode: it reads codableTabsState.archive alone, as Codable dictionaries"

    /// Decodes the bytes of a legacy tab archive; `file` names it in errors.
    ///
    /// Bytes that are no binary property list, or one damaged anywhere its objects reach, are
    /// `FormatError.damaged` at the first bad byte; a property list that is no keyed archive, or one
    /// without `tabs`, is `.notASession`; `tabs` that is no array, and references that expand past
    /// what the file's size allows (`ExpansionBudget`), are `.damaged`. Damage within a tab skips
    /// that tab only.
    public static func decode(_ bytes: [UInt8], file: String) throws(FormatError) -> FirefoxLegacyArchive {
        let plist: BinaryPlist
        do throws(PlistDamage) {
            plist = try BinaryPlistReader.read(bytes)
        } catch {
            throw .damaged(file: file, offset: error.offset, reason: error.reason)
        }
        let archive: KeyedArchive
        do throws(PlistDamage) {
            archive = try KeyedArchive(plist: plist)
        } catch {
            throw .notASession(path: file, reason: error.reason)
        }
        guard let tabs = archive.top["tabs"] else {
            throw .notASession(path: file, reason: "a keyed archive whose $top has no \"tabs\": not a Firefox for iOS tab archive")
        }
        do throws(PlistDamage) {
            var reader = FirefoxLegacyArchiveReader(archive: archive)
            return try reader.read(tabsAt: tabs)
        } catch {
            throw .damaged(file: file, offset: error.offset, reason: error.reason)
        }
    }
}

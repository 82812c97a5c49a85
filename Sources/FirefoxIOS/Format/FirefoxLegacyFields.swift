import FileSystemKit
import SessionFormats
import SessionModel

/// One value of a legacy tab archive as stored: a plain value, `$null`, or an archived object.
enum FirefoxLegacyValue {
    /// A string, number, boolean or data, inline or in `$objects`.
    case scalar(PlistObject)
    /// A reference to `$null` (NSCoding's nil object).
    case null
    /// An archived object: a `SavedTab`, `NSURL`, `NSUUID`, `NSArray`, `NSDictionary`, ...
    case object(ArchivedObject)

    /// The `$objects` entry `uid` as a value; damage when the reference leads nowhere or to a
    /// dictionary that is no archived object.
    static func resolve(_ uid: UInt64, in archive: KeyedArchive, referrer: Int) throws(PlistDamage) -> FirefoxLegacyValue {
        guard uid != 0 else { return .null }
        let index = try archive.entry(uid, referrer: referrer)
        guard case .dictionary = archive.plist[index] else { return .scalar(archive.plist[index]) }
        guard let object = try archive.object(uid, referrer: referrer) else { return .null }
        return .object(object)
    }

    /// What the value is, for a message: "a string", "an NSURL object", "$null".
    var kind: String {
        switch self {
        case .scalar(let object): return Self.article(object.kindName) + " " + object.kindName
        case .null: return "$null"
        case .object(let object): return Self.article(object.className) + " " + object.className + " object"
        }
    }

    /// The string of a plain string or of an archived `NSString` (`NS.string`, one level only).
    var string: String? {
        switch self {
        case .scalar(.string(let text)): return text
        case .object(let object):
            guard let text = try? object.string("NS.string") else { return nil }
            return text
        default: return nil
        }
    }

    private static func article(_ word: String) -> String {
        guard let first = word.first?.lowercased(), word != "UID" else { return "a" }
        return "aeiou".contains(first) || word.hasPrefix("NS") ? "an" : "a"
    }
}

/// The keyed fields of one container of a legacy tab archive, whichever way it was archived: an
/// NSCoding object's own fields (`SavedTab`, `SessionData`, `NSURL`: values inline or by
/// reference) or an archived `NSDictionary`'s entries (what Codable's property-list encoder
/// makes, values always by reference).
struct FirefoxLegacyFields {
    /// Where a field's value is.
    private enum Member {
        /// Stored in the object's own dictionary: the plist object index.
        case inline(Int)
        /// A reference to an `$objects` entry.
        case reference(UInt64)
    }

    let archive: KeyedArchive
    /// The archived object the fields belong to.
    let object: ArchivedObject
    /// True for an `NSDictionary` (Codable's containers), false for an NSCoding object.
    let isDictionary: Bool
    /// Keys of a dictionary that are not strings (Firefox's decoder refuses them).
    private(set) var foreignKeys = 0
    private var members: [String: Member] = [:]

    /// The fields of `object`: its entries when it is an `NSDictionary`, else its keyed fields.
    init(_ object: ArchivedObject) throws(PlistDamage) {
        archive = object.archive
        self.object = object
        isDictionary = LegacyClass(object) == .dictionary
        if isDictionary {
            for entry in try object.dictionaryEntries() {
                guard case .string(let key)? = try archive.scalar(entry.key, referrer: object.index) else {
                    foreignKeys += 1
                    continue
                }
                if members[key] == nil { members[key] = .reference(entry.value) }
            }
        } else {
            for (key, index) in object.fields where key != "$class" {
                if case .uid(let uid) = archive.plist[index] { members[key] = .reference(uid) } else { members[key] = .inline(index) }
            }
        }
    }

    /// The byte offset of the container.
    var offset: Int { object.offset }

    /// The value of `key`: nil when absent, `.null` for a reference to `$null`.
    func value(_ key: String) throws(PlistDamage) -> FirefoxLegacyValue? {
        switch members[key] {
        case nil: return nil
        case .inline(let index)?: return .scalar(archive.plist[index])
        case .reference(let uid)?: return try FirefoxLegacyValue.resolve(uid, in: archive, referrer: object.index)
        }
    }
}

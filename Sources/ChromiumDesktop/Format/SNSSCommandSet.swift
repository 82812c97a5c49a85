import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// The command table an SNSS file is read with: the session service's (`Session_`, `Apps_` and
/// the legacy `Current Session`) or the tab-restore service's (`Tabs_`). Each knows the shape
/// of its commands' contents, which is how the reader finds its footing again after damage.
public enum SNSSCommandSet: String, Sendable {
    case session
    case tabRestore = "tab-restore"

    /// The contents' sizes a command of fixed size may have (a C struct on a 64-bit build; two
    /// where a 32-bit build's struct differs), nil for another command. Not an array: it is asked
    /// for every record.
    struct FixedSize: Equatable {
        var size: Int
        var otherSize: Int

        init(_ size: Int, or otherSize: Int? = nil) {
            self.size = size
            self.otherSize = otherSize ?? size
        }

        /// Whether contents of `count` bytes have one of the sizes.
        func allows(_ count: Int) -> Bool { count == size || count == otherSize }
    }

    func fixedSize(of id: UInt8) -> FixedSize? {
        switch self {
        case .session:
            switch id {
            case 20: FixedSize(4)
            case 0, 2, 5, 7, 8, 9, 11, 12, 32: FixedSize(8)
            case 24: FixedSize(12)
            case 16, 17, 21: FixedSize(16)
            case 10, 14: FixedSize(24)
            case 25, 36: FixedSize(32)
            case SNSSFile.markerID: FixedSize(0)
            default: nil
            }
        case .tabRestore:
            switch id {
            case 5: FixedSize(1)
            case 2: FixedSize(4)
            case 3: FixedSize(12, or: 24)
            case 4: FixedSize(8, or: 16)
            case SNSSFile.markerID: FixedSize(0)
            default: nil
            }
        }
    }

    /// Whether a command of this id holds a pickle.
    func isPickled(_ id: UInt8) -> Bool {
        switch self {
        case .session:
            switch id {
            case 6, 13, 15, 18, 19, 23, 27, 28, 29, 30, 31, 33, 34, 35, 37: true
            default: false
            }
        case .tabRestore:
            switch id {
            case 1, 6, 7, 8, 9, 10, 11, 12, 13, 14: true
            default: false
            }
        }
    }

    /// The id of the set's UpdateTabNavigation command.
    var navigationID: UInt8 { self == .session ? 6 : 1 }

    /// Whether `id` is a command of this set that Chromium reads.
    public func knows(_ id: UInt8) -> Bool { fixedSize(of: id) != nil || isPickled(id) }

    /// Whether `bytes[contents]` has the shape a command `id` calls for: its struct's size, or a
    /// pickle whose header accounts for the contents exactly.
    func isPlausible(id: UInt8, _ bytes: FileBytes, _ contents: Range<Int>) -> Bool {
        if let sizes = fixedSize(of: id) { return sizes.allows(contents.count) }
        guard isPickled(id), contents.count >= 4 else { return false }
        let payload = Int(bytes.uint32(at: contents.lowerBound))
        return payload + 4 == contents.count && payload % 4 == 0
    }
}

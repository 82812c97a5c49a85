import SessionModel

/// A directory of a session directory whose name spells a tab id in hexadecimal (canonical, as
/// `0000000a`, or not, as `0000000A` or `a`), read with its data.pb decoded.
public struct TabDirectoryRead: Sendable {
    /// The directory's name.
    public var name: String
    /// The id the name spells.
    public var id: TabID
    /// data.pb.
    public var data: FileRead
    /// What data.pb decodes to, when it was read (errors name the file by its tree path).
    public var history: Result<TabHistory, FormatError>?
    /// state.pb's size, when it is a regular file.
    public var stateSize: Int?
    /// state.pb's bytes, when the read was made for a rewrite and the file could be read.
    public var state: [UInt8]?
    /// Everything in the directory but data.pb and state.pb.
    public var others: [String]

    /// True when the name is the one Chrome gives the directory of `id`.
    public var isCanonical: Bool { Tab.directoryName(for: id) == name }

    /// The history when data.pb decodes.
    public var decodedHistory: TabHistory? { try? history?.get() }

    public init(
        name: String, id: TabID, data: FileRead, history: Result<TabHistory, FormatError>? = nil, stateSize: Int?,
        state: [UInt8]?, others: [String]
    ) {
        self.name = name
        self.id = id
        self.data = data
        self.history = history ?? data.bytes.map { TabDirectoryRead.decode($0, file: ProfileLayout.tabDataFile) }
        self.stateSize = stateSize
        self.state = state
        self.others = others
    }

    /// data.pb's bytes decoded, its errors naming it `file`.
    public static func decode(_ bytes: [UInt8], file: String) -> Result<TabHistory, FormatError> {
        do throws(FormatError) {
            return .success(try ChromeProtoCodec.decodeTabData(bytes, file: file))
        } catch {
            return .failure(error)
        }
    }

    /// True for names made only of hex digits (either case), 1 to 16 of them, as a tab directory's
    /// name is, or a hand-renamed or mis-named one.
    public static func looksLikeTabDirectory(_ name: String) -> Bool {
        (1...16).contains(name.utf8.count)
            && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }

    /// The id a directory name spells in hexadecimal (1 to 16 digits of either case), when it is a valid tab id.
    public static func tabID(fromHexName name: String) -> TabID? {
        guard looksLikeTabDirectory(name), let value = UInt64(name, radix: 16), value > 0, value <= UInt64(Int32.max)
        else { return nil }
        return TabID(value)
    }
}

/// One member of a tar archive: what it is, where it goes, and its metadata.
public struct TarEntry: Sendable, Equatable {
    /// What a tar member is.
    public enum Kind: Sendable, Equatable {
        case file
        case directory
        case symbolicLink
        case hardLink
        case characterDevice
        case blockDevice
        case fifo
        /// Any other type flag (GNU sparse files, volume labels, vendor extensions).
        case other(UInt8)
    }

    /// The member's path as stored, `/`-separated (pax or GNU long names already applied).
    public var path: String
    public var kind: Kind
    /// Bytes of content that follow the header (regular files only).
    public var size: Int64
    /// Permission bits (and set-id bits) as stored.
    public var mode: UInt32
    /// Modification time, seconds since the Unix epoch.
    public var modificationTime: Int64
    /// The target of a symbolic or hard link.
    public var linkTarget: String
    public var userID: Int
    public var groupID: Int
    public var userName: String
    public var groupName: String

    public init(
        path: String, kind: Kind, size: Int64 = 0, mode: UInt32 = 0o644, modificationTime: Int64 = 0,
        linkTarget: String = "", userID: Int = 0, groupID: Int = 0, userName: String = "", groupName: String = ""
    ) {
        self.path = path
        self.kind = kind
        self.size = size
        self.mode = mode
        self.modificationTime = modificationTime
        self.linkTarget = linkTarget
        self.userID = userID
        self.groupID = groupID
        self.userName = userName
        self.groupName = groupName
    }

    /// The ustar type flag for this kind.
    var typeFlag: UInt8 {
        switch kind {
        case .file: return UInt8(ascii: "0")
        case .hardLink: return UInt8(ascii: "1")
        case .symbolicLink: return UInt8(ascii: "2")
        case .characterDevice: return UInt8(ascii: "3")
        case .blockDevice: return UInt8(ascii: "4")
        case .directory: return UInt8(ascii: "5")
        case .fifo: return UInt8(ascii: "6")
        case .other(let flag): return flag
        }
    }

    /// The kind for a ustar or GNU type flag (`0`, NUL and `7` are regular files).
    static func kind(ofTypeFlag flag: UInt8) -> Kind {
        switch flag {
        case 0, UInt8(ascii: "0"), UInt8(ascii: "7"): return .file
        case UInt8(ascii: "1"): return .hardLink
        case UInt8(ascii: "2"): return .symbolicLink
        case UInt8(ascii: "3"): return .characterDevice
        case UInt8(ascii: "4"): return .blockDevice
        case UInt8(ascii: "5"), UInt8(ascii: "D"): return .directory
        case UInt8(ascii: "6"): return .fifo
        default: return .other(flag)
        }
    }
}

import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// An SNSS file read record by record (docs/chromium-desktop-format.md, "Header and records"):
/// the `SNSS` signature and an int32 version, then records of a uint16 size (the id byte and the
/// contents), a uint8 id and the contents.
///
/// Chrome stops at the first damaged record (a size of zero, a size past the end, a lone byte)
/// and keeps what came before. This reader goes on: after damage it looks for the next place
/// where records line up again, checked by the command's own structure (`SNSSCommandSet`), and
/// marks what it reads there `salvaged`. Hand-written: SNSS is Chromium's own framing, which no
/// kept library reads.
public struct SNSSFile: Sendable {
    /// The signature, read as a little-endian int32 (`SNSS` on disk).
    public static let signature: [UInt8] = Array("SNSS".utf8)
    /// The id of the record that ends a full state written at a reset.
    public static let markerID: UInt8 = 255
    /// The size of the header: the signature and the version.
    public static let headerSize = 8
    /// How far ahead of the record being read the walk asks for the file's bytes to be loaded.
    static let prefetchDistance = 4096

    /// What the header says.
    public enum Header: Sendable, Equatable {
        /// A version whose records are plain: 1 (no marker, written before 2021) or 3 (with the marker).
        case plain(version: Int32)
        /// 2 and 4 (AES-GCM, with a key Chrome desktop never passes) or 5 (os_crypt, in
        /// `Sessions_Encrypted/`): records that cannot be read without the key.
        case encrypted(version: Int32)
        /// Another version.
        case unknownVersion(Int32)
        /// Shorter than the header, or not starting with `SNSS`.
        case notSNSS
    }

    /// One record: its id and where it is.
    public struct Record: Sendable, Equatable {
        public var id: UInt8
        /// The offset of the record (its size field) in the file.
        public var offset: Int
        /// Where the contents are in the file.
        public var contents: Range<Int>
        /// Read after damage, where Chrome never reads.
        public var salvaged: Bool
    }

    /// Where the records stopped lining up, and where they did again.
    public struct Damage: Sendable, Equatable {
        /// What was found at `offset`.
        public enum Kind: String, Sendable {
            /// A record whose size is zero.
            case sizeZero = "size-zero"
            /// A record whose size goes past the end of the file.
            case pastEnd = "past-end"
            /// A single byte left, no room for a size.
            case incomplete
        }

        public var offset: Int
        public var kind: Kind
        /// Where records line up again (nil: nothing after the damage reads as records).
        public var resumedAt: Int?

        /// What it is, in words.
        public var reason: String {
            switch kind {
            case .sizeZero: "a record of size zero"
            case .pastEnd: "a record whose size goes past the end of the file"
            case .incomplete: "one byte left where a record's size should be"
            }
        }
    }

    public let bytes: FileBytes
    public private(set) var header: Header
    /// Every record, those read past damage included (marked `salvaged`), the marker among them.
    public private(set) var records: [Record]
    public private(set) var damage: [Damage]
    /// The last record when the file ends in its middle: its id and the contents that are there
    /// (salvage reads what it can of them).
    public private(set) var cutRecord: Record?
    /// How many of `records` Chrome reads: those before the first damage (noted as they are read).
    public private(set) var readByChrome = 0
    /// The index in `records` of the marker, when Chrome finds one (before the first damage).
    public private(set) var markerIndex: Int?

    /// The version in the header, whatever it is (nil for no SNSS header).
    public var version: Int32? {
        switch header {
        case .plain(let version), .encrypted(let version), .unknownVersion(let version): version
        case .notSNSS: nil
        }
    }

    /// Whether `bytes` start with the SNSS signature.
    public static func hasSignature(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= 4 && bytes.prefix(4).elementsEqual(signature)
    }

    /// Reads the records of `bytes`, resynchronising after damage on boundaries that `commands`
    /// finds plausible.
    public static func read(_ bytes: FileBytes, commands: SNSSCommandSet) -> SNSSFile {
        read(bytes, commands: commands) { _ in }
    }

    /// `read`, handing each record Chrome reads (those before the first damage) to `visit` as
    /// soon as it is framed, while its bytes are still in the cache.
    static func read(_ bytes: FileBytes, commands: SNSSCommandSet, visit: (Record) -> Void) -> SNSSFile {
        var file = SNSSFile(bytes: bytes, header: .notSNSS, records: [], damage: [], cutRecord: nil)
        guard bytes.count >= headerSize, hasSignature(bytes[0..<4]) else { return file }
        let version = Int32(bitPattern: bytes.uint32(at: 4))
        switch version {
        case 1, 3: file.header = .plain(version: version)
        case 2, 4, 5:
            file.header = .encrypted(version: version)
            return file
        default:
            file.header = .unknownVersion(version)
            return file
        }
        // Records of a session file average hundreds of bytes (a navigation's page state): room
        // for one every 128 bytes spares growing the array, and what it does not use is never touched.
        file.records.reserveCapacity(bytes.count / 128)
        var position = headerSize
        var salvaged = false
        // Each record's size says where the next one is: asked for ahead, the lines are there when
        // the walk reaches them, instead of each record waiting on memory in turn.
        var prefetched = position
        while position < bytes.count {
            while prefetched < position + prefetchDistance {
                bytes.prefetch(prefetched)
                prefetched += 64
            }
            let kind: Damage.Kind
            if bytes.count - position < 2 {
                kind = .incomplete
            } else {
                let size = Int(bytes[position]) | Int(bytes[position + 1]) << 8
                if size == 0 {
                    kind = .sizeZero
                } else if size > bytes.count - position - 2 {
                    kind = .pastEnd
                } else {
                    let contents = position + 3..<position + 2 + size
                    let record = Record(id: bytes[position + 2], offset: position, contents: contents, salvaged: salvaged)
                    if !salvaged {
                        if record.id == markerID, file.markerIndex == nil { file.markerIndex = file.records.count }
                        visit(record)
                    }
                    file.records.append(record)
                    position = contents.upperBound
                    continue
                }
            }
            // Chrome reads the records before the first damage.
            if file.damage.isEmpty { file.readByChrome = file.records.count }
            // A navigation the end of the file cuts: what is there of it is its own bytes, not records.
            if kind == .pastEnd, bytes.count - position > 3, bytes[position + 2] == commands.navigationID,
                SNSSNavigation.decodeCut(bytes, position + 3..<bytes.count) != nil
            {
                file.damage.append(Damage(offset: position, kind: kind, resumedAt: nil))
                file.cutRecord = Record(id: bytes[position + 2], offset: position, contents: position + 3..<bytes.count, salvaged: true)
                break
            }
            let resumed = resynchronise(bytes, after: position, commands: commands)
            file.damage.append(Damage(offset: position, kind: kind, resumedAt: resumed))
            guard let resumed else { break }
            position = resumed
            salvaged = true
        }
        if file.damage.isEmpty { file.readByChrome = file.records.count }
        return file
    }

    /// `read` of bytes held in an array.
    public static func read(_ bytes: [UInt8], commands: SNSSCommandSet) -> SNSSFile {
        read(FileBytes(bytes), commands: commands)
    }

    /// The first offset after `damage` where a record that `commands` finds plausible starts and
    /// the record after it is plausible too (or the file ends exactly there); nil when none.
    static func resynchronise(_ bytes: FileBytes, after damage: Int, commands: SNSSCommandSet) -> Int? {
        var candidate = damage + 1
        while candidate + 3 <= bytes.count {
            if let next = plausibleRecord(bytes, at: candidate, commands: commands),
                next == bytes.count || plausibleRecord(bytes, at: next, commands: commands) != nil
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    /// The end of the record at `offset` when it is whole and its contents have the shape its id
    /// calls for; nil otherwise.
    static func plausibleRecord(_ bytes: FileBytes, at offset: Int, commands: SNSSCommandSet) -> Int? {
        guard bytes.count - offset >= 3 else { return nil }
        let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        guard size >= 1, size <= bytes.count - offset - 2 else { return nil }
        let contents = offset + 3..<offset + 2 + size
        guard commands.isPlausible(id: bytes[offset + 2], bytes, contents) else { return nil }
        return contents.upperBound
    }
}

import Archive
import Dispatch
import FileSystemKit
import SessionFormats
import SessionModel

/// One Firefox desktop session file, decoded as far as it goes: its container (mozLz4 or the
/// plain JSON of old versions), the JSON inside, and the session that JSON holds, with where each
/// layer stopped when the file is damaged; and whether Firefox itself would load it.
public struct SessionstoreFile: Sendable, Equatable {
    /// How the file is stored.
    public enum Container: String, Sendable, Equatable {
        /// `mozLz40\0`, the size, one LZ4 block: what Firefox writes.
        case mozLz4
        /// Plain JSON: the `.js`/`.bak` files of old versions, or a file decompressed by hand.
        case plain
    }

    public var container: Container
    /// Why the container gives no JSON at all (a compressed name without the magic, a header cut
    /// short, a size beyond the limit); nil when it gives some.
    public var containerRefusal: String?
    /// Where the mozLz4 block stopped decoding, as an offset into the file.
    public var containerDamage: MozLz4.Decoded.Damage?
    /// Whether Firefox's own reading gets the JSON out of the container (a plain file always).
    public var containerLoads: Bool
    /// The size of the JSON that decoded.
    public var jsonSize: Int
    /// The session read from the JSON, with the JSON's damage.
    public var decoded: SessionstoreDecoder.Decoded

    /// The largest JSON a file may declare: well beyond any real session (Firefox's own runs to
    /// tens of megabytes), so that a lying header cannot take the memory.
    public static let jsonLimit = 1 << 30

    /// JSON larger than this is not kept once read: its document's parts are deferred to the
    /// file's bytes (`DeferredSessionstore`), and such files are decoded one at a time.
    public static let keptJSONLimit = 16 << 20

    /// At most one file whose JSON is over `keptJSONLimit` is decoded at a time, whatever the
    /// number of cores reading: memory stays that of the largest file, not of all of them.
    static let largeDecodes = DispatchSemaphore(value: 1)

    /// Decodes the bytes of a session file; `compressed` is whether Firefox reads it as mozLz4
    /// (by its name), nil to decide by its content. With `deferringLarge`, a document of over
    /// `keptJSONLimit` bytes of JSON keeps none of it (`DeferredSessionstore`).
    public static func decode(_ bytes: [UInt8], file: String, compressed: Bool?, deferringLarge: Bool = true) -> SessionstoreFile {
        let largest =
            MozLz4.isContainer(bytes) && compressed != false
            ? min(MozLz4.declaredSize(bytes), max(0, bytes.count - MozLz4.headerSize) * 255 + 16) : bytes.count
        guard deferringLarge, largest > keptJSONLimit else { return decodeWhole(bytes, file: file, compressed: compressed) }
        largeDecodes.wait()
        defer { largeDecodes.signal() }
        var read = decodeWhole(bytes, file: file, compressed: compressed)
        if let document = read.decoded.document {
            read.decoded.document = DeferredSessionstore.deferring(
                document, to: DeferredSessionstore(bytes: bytes, file: file, compressed: compressed))
        }
        return read
    }

    /// Decodes the bytes of a session file, keeping the document's JSON.
    private static func decodeWhole(_ bytes: [UInt8], file: String, compressed: Bool?) -> SessionstoreFile {
        let isContainer = MozLz4.isContainer(bytes)
        guard compressed ?? isContainer else {
            return SessionstoreFile(
                container: .plain, containerRefusal: nil, containerDamage: nil, containerLoads: true, jsonSize: bytes.count,
                decoded: SessionstoreDecoder.decode(bytes))
        }
        let empty = SessionstoreDecoder.Decoded(document: nil, damage: nil, cutTabs: 0)
        guard isContainer else {
            return SessionstoreFile(
                container: .mozLz4, containerRefusal: "it does not start with mozLz4's magic (mozLz40)", containerDamage: nil,
                containerLoads: false, jsonSize: 0, decoded: empty)
        }
        do throws(ArchiveError) {
            let inner = try MozLz4.decode(bytes, file: file, limit: jsonLimit)
            // Firefox reads a header of size 0 as an empty document, without decoding the block.
            let json = inner.declaredSize == 0 ? [] : inner.bytes
            return SessionstoreFile(
                container: .mozLz4, containerRefusal: nil, containerDamage: inner.damage,
                containerLoads: inner.decodesInFirefox || inner.declaredSize == 0, jsonSize: json.count,
                decoded: SessionstoreDecoder.decode(json))
        } catch {
            let reason: String
            switch error {
            case .damaged(_, _, let why), .notAnArchive(_, let why): reason = why
            case .tooLarge(_, let limit): reason = "its block decodes to more than \(limit) bytes, more than sessionctl reads"
            default: reason = error.description
            }
            return SessionstoreFile(
                container: .mozLz4, containerRefusal: reason, containerDamage: nil, containerLoads: false, jsonSize: 0, decoded: empty)
        }
    }

    /// The session read, whole or salvaged.
    public var document: SessionstoreDocument? { decoded.document }

    /// Whether Firefox loads this file at startup: its container decodes as Firefox decodes it,
    /// its JSON parses whole, and its version is one Firefox reads.
    public var loadsInFirefox: Bool { whyNotLoaded == nil }

    /// Why Firefox does not load the file, in a phrase; nil when it does.
    public var whyNotLoaded: String? {
        if let containerRefusal { return containerRefusal }
        if !containerLoads {
            let damage = containerDamage.map { "\($0.reason), at byte \($0.fileOffset)" } ?? "the block does not decode"
            return "its mozLz4 block does not decode (\(damage))"
        }
        if jsonSize == 0 { return "it holds no JSON" }
        if let damage = decoded.damage { return "its JSON is damaged at byte \(damage.offset) of \(jsonSize) (\(damage.reason))" }
        guard let document = decoded.document else { return "its JSON is not an object" }
        if let refusal = document.versionRefusal { return refusal }
        return nil
    }

    /// Whether Firefox passes over the file only for its version (nothing in it is damaged).
    var versionRefusalOnly: Bool {
        containerRefusal == nil && containerLoads && decoded.damage == nil && document?.versionRefusal != nil
    }

    /// Whether any of the file's layers is damaged (a block that Firefox still loads included).
    public var isDamaged: Bool { containerRefusal != nil || containerDamage != nil || decoded.damage != nil }
}

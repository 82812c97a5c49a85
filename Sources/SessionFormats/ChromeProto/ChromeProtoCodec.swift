import Foundation
import SessionModel
import SwiftProtobuf

/// Reads and writes the two files of Chrome's optimized format: `session_metadata.pb` and `data.pb`.
///
/// Writing produces Chrome's canonical bytes (fields in number order, proto3 defaults left out,
/// Timestamp messages always present, negative int32 as 10-byte varints, unknown fields kept).
/// Reading is strict (`decode...`) or tolerant (`salvage...`), the latter reporting the offset of
/// the first bad byte and the complete fields before it.
public enum ChromeProtoCodec {
    /// A tolerant read: what could be decoded, and where the damage starts, if anywhere.
    public struct Salvage<Value: Sendable>: Sendable {
        /// The value decoded from the complete, valid top-level fields (all of them when undamaged).
        public var value: Value
        /// The first bad byte, or nil when the file is intact.
        public var damage: WireDamage?
        /// Enum values outside the ranges Chrome knows (Chrome crashes on them).
        public var enumsOutOfRange: [WireEnumOutOfRange]
        /// Length of the valid prefix that `value` was decoded from.
        public var validPrefix: Int
    }

    // MARK: session_metadata.pb

    /// Decodes `session_metadata.pb`; throws `FormatError.damaged` with the first bad byte.
    public static func decodeSessionMetadata(
        _ bytes: [UInt8], id: SessionID, incognito: Bool, file: String = "session_metadata.pb"
    ) throws(FormatError) -> Session {
        // As for data.pb: Chrome's plain files without message objects, the rest through swift-protobuf.
        if let session = PlainSessionMetadataDecoder.decode(bytes, id: id, incognito: incognito) { return session }
        return try decodeSessionMetadataMessage(bytes, id: id, incognito: incognito, file: file)
    }

    /// Decodes session_metadata.pb through swift-protobuf (the reference the plain decoder agrees with).
    @_spi(Fuzzing) public static func decodeSessionMetadataMessage(
        _ bytes: [UInt8], id: SessionID, incognito: Bool, file: String = "session_metadata.pb"
    ) throws(FormatError) -> Session {
        if let message = try? Ios_Proto_WebStateListStorage(serializedBytes: bytes) {
            return Session(message, id: id, incognito: incognito)
        }
        let scan = WireScanner.scan(bytes, as: .webStateList)
        let damage = scan.damage ?? WireDamage(offset: scan.validPrefix, reason: "not a WebStateListStorage message")
        throw .damaged(file: file, offset: damage.offset, reason: damage.reason)
    }

    /// Decodes as much of `session_metadata.pb` as is intact.
    public static func salvageSessionMetadata(_ bytes: [UInt8], id: SessionID, incognito: Bool) -> Salvage<Session> {
        let scan = WireScanner.scan(bytes, as: .webStateList)
        let prefix = Array(bytes[0..<scan.validPrefix])
        let message = (try? Ios_Proto_WebStateListStorage(serializedBytes: prefix)) ?? Ios_Proto_WebStateListStorage()
        return Salvage(
            value: Session(message, id: id, incognito: incognito), damage: scan.damage,
            enumsOutOfRange: scan.enumsOutOfRange, validPrefix: scan.validPrefix
        )
    }

    /// Encodes a session's list (no histories) as Chrome's canonical `session_metadata.pb` bytes.
    public static func encodeSessionMetadata(_ session: Session) -> [UInt8] {
        serialize(session.proto)
    }

    // MARK: data.pb

    /// Decodes a tab's `data.pb`; throws `FormatError.damaged` with the first bad byte.
    public static func decodeTabData(_ bytes: [UInt8], file: String = "data.pb") throws(FormatError) -> TabHistory {
        // Most files are of the plain shape Chrome writes, which decodes without message objects;
        // everything else (unknown fields, damage, ...) takes the full protobuf path.
        if let history = PlainTabDataDecoder.decode(bytes) { return history }
        return try decodeTabDataMessage(bytes, file: file)
    }

    /// Decodes a data.pb through swift-protobuf (the reference the plain decoder agrees with).
    @_spi(Fuzzing) public static func decodeTabDataMessage(_ bytes: [UInt8], file: String = "data.pb") throws(FormatError) -> TabHistory {
        if let message = try? Web_Proto_WebStateStorage(serializedBytes: bytes) {
            return TabHistory(message)
        }
        let scan = WireScanner.scan(bytes, as: .webState)
        let damage = scan.damage ?? WireDamage(offset: scan.validPrefix, reason: "not a WebStateStorage message")
        throw .damaged(file: file, offset: damage.offset, reason: damage.reason)
    }

    /// Decodes as much of a tab's `data.pb` as is intact.
    public static func salvageTabData(_ bytes: [UInt8]) -> Salvage<TabHistory> {
        let scan = WireScanner.scan(bytes, as: .webState)
        let prefix = Array(bytes[0..<scan.validPrefix])
        let message = (try? Web_Proto_WebStateStorage(serializedBytes: prefix)) ?? Web_Proto_WebStateStorage()
        return Salvage(
            value: TabHistory(message), damage: scan.damage,
            enumsOutOfRange: scan.enumsOutOfRange, validPrefix: scan.validPrefix
        )
    }

    /// The metadata Chrome's transitional layout wrote inside data.pb (field 2), if present.
    public static func embeddedMetadata(
        inTabData bytes: [UInt8]
    ) -> (creation: Timestamp, lastActive: Timestamp, title: String, url: String, count: Int32)? {
        guard let message = try? Web_Proto_WebStateStorage(serializedBytes: bytes), message.hasMetadata else { return nil }
        let metadata = message.metadata
        return (
            Timestamp(metadata.creationTime), Timestamp(metadata.lastActiveTime),
            metadata.activePage.pageTitle, metadata.activePage.pageURL, metadata.navigationItemCount
        )
    }

    /// Encodes a tab's history as Chrome's canonical `data.pb` bytes (metadata field left out).
    public static func encodeTabData(_ history: TabHistory) -> [UInt8] {
        serialize(history.proto)
    }

    /// Scans bytes of session_metadata.pb for damage and out-of-range enums without building values.
    public static func scanSessionMetadata(_ bytes: [UInt8]) -> WireScanResult { WireScanner.scan(bytes, as: .webStateList) }

    /// Scans bytes of data.pb for damage and out-of-range enums without building values.
    public static func scanTabData(_ bytes: [UInt8]) -> WireScanResult { WireScanner.scan(bytes, as: .webState) }

    private static func serialize(_ message: some SwiftProtobuf.Message) -> [UInt8] {
        // Serialising a message built in memory cannot fail: every field is set from typed values.
        (try? message.serializedBytes()) ?? []
    }
}

/// A property list value as a tree: what the binary plist writer takes and what a reader can build.
///
/// Dictionaries have string keys (the only kind NSKeyedArchiver writes); the writer orders them by
/// their UTF-8 bytes so that the same value always gives the same bytes.
public indirect enum PlistValue: Sendable, Hashable {
    case bool(Bool)
    case integer(Int64)
    /// A 128-bit integer that does not fit in 64 bits, as its 16 big-endian bytes.
    case largeInteger([UInt8])
    case real(Double)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// An NSKeyedArchiver object reference (`CF$UID`).
    case uid(UInt64)
    case array([PlistValue])
    case set([PlistValue])
    case dictionary([String: PlistValue])
    /// The null object (marker 0x00), which only some writers produce.
    case null
}

import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A JSON value kept for a rewrite: parsed, or as the bytes it was read from, parsed only when a
/// rewrite asks for it (a session of tens of megabytes is validated without building its tree).
public enum RawJSON: Sendable, Equatable {
    case value(JSONValue)
    /// `bytes[range]`: a whole, well-formed JSON value (`bytes` shared by every value of a document).
    case span([UInt8], Range<Int>)
    /// A part of a large session file, decoded again from the file's bytes when asked for.
    case deferred(DeferredSessionstore, SessionstorePart)

    /// The value.
    public var value: JSONValue {
        switch self {
        case .value(let value): return value
        case .span(let bytes, let range):
            // The scanner that made the span checked the value as the parser does.
            return (try? JSONParser.parse(Array(bytes[range]), file: "", takingLoneSurrogates: true, maxDepth: nil)) ?? .null
        case .deferred(let source, let part): return source.value(of: part)
        }
    }

    public static func == (lhs: RawJSON, rhs: RawJSON) -> Bool {
        switch (lhs, rhs) {
        case (.span(let a, let x), .span(let b, let y)): return a[x] == b[y]
        case (.deferred(let a, let x), .deferred(let b, let y)) where a.serial == b.serial: return x == y || lhs.value == rhs.value
        default: return lhs.value == rhs.value
        }
    }
}

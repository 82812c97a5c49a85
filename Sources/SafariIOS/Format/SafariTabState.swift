import SessionFormats
import SessionModel

/// A tab's `session_data` as Safari for iOS stores it: WebKit's session state (a 4-byte version,
/// then a binary property list), compressed with `AppleLZ4` when the raw state is 1 MiB or more.
/// The row says which: `uncompressed_session_data_size` not 0 and unlike the blob's length.
public enum SafariTabState {
    /// What a tab's stored state comes to.
    public enum Decoded: Sendable, Equatable {
        /// The history, and whether it was stored compressed.
        case history(WebKitSessionState, compressed: Bool)
        /// A state over `SafariIOSLayout.largestRestoredState`: Safari drops it and the tab
        /// restores without history, though the history can still be read from it.
        case dropped(WebKitSessionState?, size: Int)
        /// It does not decode: why, and where.
        case damaged(FormatError)
        /// Compressed, and it decodes to more bytes than the row records: Safari decodes into a
        /// buffer of the recorded size, cuts the state, and restores the tab without history. The
        /// state as it decodes whole.
        case sizeMismatch(WebKitSessionState, recorded: Int, actual: Int)

        /// The history that can be read from it, whatever Safari makes of it.
        public var state: WebKitSessionState? {
            switch self {
            case .history(let state, _), .sizeMismatch(let state, _, _): state
            case .dropped(let state, _): state
            case .damaged: nil
            }
        }
    }

    /// The most a compressed state is decoded to, whatever its row records.
    public static let decodeLimit = 64 << 20

    /// Decodes the stored state of a tab (`file` names it in errors, made only for one).
    public static func decode(_ data: [UInt8], uncompressedSize: Int?, file: @autoclosure () -> String) -> Decoded {
        let compressed = (uncompressedSize ?? 0) != 0 && uncompressedSize != data.count
        var raw = data
        if compressed {
            // Decoded whole (within the limit) whatever the row records: a size that lies is told.
            do throws(AppleLZ4.Damage) {
                raw = try AppleLZ4.decode(data, limit: decodeLimit)
            } catch {
                return .damaged(.damaged(file: file(), offset: error.offset, reason: error.reason))
            }
        }
        let size = raw.count
        let state: WebKitSessionState
        do throws(FormatError) {
            // Only a state Safari drops is rewritten from its entries (repair keeps the nearest
            // ones within the limit, each with its frame state): of the others the frame
            // states, most of a large state's bytes, are not kept.
            state = try WebKitSessionState.decode(consume raw, file: file(), frameStates: size > SafariIOSLayout.largestRestoredState)
        } catch {
            return size > SafariIOSLayout.largestRestoredState ? .dropped(nil, size: size) : .damaged(error)
        }
        if size > SafariIOSLayout.largestRestoredState { return .dropped(state, size: size) }
        if compressed, let recorded = uncompressedSize, size > recorded {
            return .sizeMismatch(state, recorded: recorded, actual: size)
        }
        return .history(state, compressed: compressed)
    }

    /// The bytes Safari would store for `state`: compressed when its raw form is 1 MiB or more.
    public static func encode(_ state: WebKitSessionState) -> (data: [UInt8], uncompressedSize: Int) {
        let raw = state.encode()
        guard raw.count >= SafariIOSLayout.compressionThreshold else { return (raw, raw.count) }
        return (AppleLZ4.encode(raw), raw.count)
    }
}

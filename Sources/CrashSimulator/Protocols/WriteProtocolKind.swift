import SessionStore

/// The write protocols `crash-test --protocol` can put under test: the store's own, and
/// deliberately flawed ones that the simulator must catch.
public enum WriteProtocolKind: String, Sendable, CaseIterable {
    /// The store's protocol: temporary file, fsync, rename, directory fsync; list written last,
    /// closed tabs removed after it.
    case safe
    /// Truncate and rewrite each live file (fails atomicity even under `process`).
    case inPlace = "in-place"
    /// Temporary file and rename, no fsync at all (fails under `pessimistic`).
    case noFsync = "no-fsync"
    /// Foundation's atomic write: fsync of the temporary file, rename, no directory fsync (fails
    /// durability under `pessimistic`).
    case foundationAtomic = "foundation-atomic"
    /// Chrome's order: closed tab directories deleted before the new list is written, Foundation's
    /// atomic writes, no directory fsync.
    case chrome

    /// One line for help texts.
    public var summary: String {
        switch self {
        case .safe: return "the store's own protocol (must never fail)"
        case .inPlace: return "truncate and rewrite live files (fails even under process)"
        case .noFsync: return "temporary file and rename without any fsync"
        case .foundationAtomic: return "fsync the temporary file, rename, no directory fsync"
        case .chrome: return "Chrome's order: closed tabs deleted before the new list, no directory fsync"
        }
    }

    /// Makes `service` save with this protocol.
    func install(on service: SessionService) {
        // The store's own protocol needs nothing; the flawed ones are installed through the
        // store's save-protocol seam (see FlawedSaveProtocol).
    }
}

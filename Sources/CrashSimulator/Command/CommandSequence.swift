import Foundation
import SessionModel

/// The times and tab group ids a command run is given: a virtual clock that moves one second per
/// reading from a fixed start, and counted group ids, so that two runs write the same names and bytes.
public final class CommandSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Timestamp
    private var groups: UInt64 = 0

    /// A sequence starting at `start` (the recorded run starts at 2026-01-01; a re-run a day later,
    /// so that its set-aside entries never take the names of the first run's).
    public init(start: Timestamp) { time = start }

    /// 2026-01-01T00:00:00Z.
    public static let recordedStart = Timestamp(unixMicroseconds: 1_767_225_600_000_000)
    /// A day after `recordedStart`.
    public static let rerunStart = Timestamp(unixMicroseconds: 1_767_225_600_000_000 + 86_400_000_000)

    func nextTime() -> Timestamp {
        lock.withLock {
            time = Timestamp(unixMicroseconds: time.unixMicroseconds + 1_000_000)
            return time
        }
    }

    func nextGroupID() -> TabGroupID {
        lock.withLock {
            groups += 1
            return TabGroupID(high: 0x6373_6374_6C2D_6373, low: groups)
        }
    }
}

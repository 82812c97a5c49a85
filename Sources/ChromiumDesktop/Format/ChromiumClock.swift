import Archive
import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

/// Which clock a Chromium desktop time was written on. Chromium wrote a tab's last activity
/// (`kCommandLastActiveTime`) as `base::TimeTicks` (a monotonic clock: microseconds since the
/// machine started) until December 2023, and as `base::Time` (microseconds since 1601) since;
/// its reader tells them apart by `kLastActiveWorkaroundThreshold` (components/sessions/core/
/// session_service_commands.cc): a value read as a `base::Time` more than 366 × 15 days before
/// now was written as `TimeTicks`. Navigations' timestamps were always `base::Time`.
public enum ChromiumClock {
    /// `kLastActiveWorkaroundThreshold`: 366 × 15 days, in microseconds.
    public static let lastActiveWorkaroundThreshold: Int64 = 366 * 15 * 86_400 * 1_000_000

    /// Microseconds from 1601 to 1970.
    static let unixEpochSince1601: Int64 = 11_644_473_600 * 1_000_000

    /// Whether a last-active value (0: none) was written on the monotonic clock, as Chromium's
    /// reader decides it at `now` (microseconds since 1601; the system clock by default).
    public static func isTimeTicks(lastActive value: Int64, now: Int64? = nil) -> Bool {
        guard value != 0 else { return false }
        let current = now ?? Int64(Date().timeIntervalSince1970 * 1_000_000) + unixEpochSince1601
        let (age, overflow) = current.subtractingReportingOverflow(value)
        return !overflow && age > lastActiveWorkaroundThreshold
    }
}

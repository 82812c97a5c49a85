import SessionModel

/// A clock that moves only when told to: scheduled calls run inside `advance(by:)`, in the order
/// they are due (ties in the order they were scheduled), with `now` set to their due time.
public final class VirtualClock: SessionClock {
    private final class Call: ScheduledCall {
        let due: Int64
        let order: Int
        var action: (() -> Void)?
        init(due: Int64, order: Int, action: @escaping () -> Void) {
            self.due = due
            self.order = order
            self.action = action
        }
        func cancel() { action = nil }
    }

    private var microseconds: Int64
    private var calls: [Call] = []
    private var scheduled = 0

    /// A clock reading `start` (by default 2026-01-01T00:00:00Z).
    public init(start: Timestamp = Timestamp(unixMicroseconds: 1_767_225_600_000_000)) {
        microseconds = start.microseconds
    }

    public var now: Timestamp { Timestamp(microseconds: microseconds) }

    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any ScheduledCall {
        let call = Call(due: microseconds + VirtualClock.microseconds(of: delay), order: scheduled, action: action)
        scheduled += 1
        calls.append(call)
        return call
    }

    /// Number of scheduled calls that have not run and are not cancelled.
    public var pendingCalls: Int { calls.filter { $0.action != nil }.count }

    /// Moves time forward, running every call that falls due on the way.
    public func advance(by delay: Duration) {
        let target = microseconds + VirtualClock.microseconds(of: delay)
        while let next = calls.filter({ $0.action != nil && $0.due <= target }).min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) {
            microseconds = max(microseconds, next.due)
            let action = next.action
            next.action = nil
            calls.removeAll { $0.action == nil }
            action?()
        }
        microseconds = target
    }

    static func microseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

import SessionModel

/// A call scheduled on a `SessionClock`, which can be cancelled before it runs.
public protocol ScheduledCall: AnyObject {
    /// Prevents the call from running (nothing happens if it already ran).
    func cancel()
}

/// The time source of the session store: wall time for tab timestamps and set-aside stamps, and
/// one-shot delayed calls for the delayed save.
///
/// `VirtualClock` makes everything deterministic (tests, the crash simulator); an app uses a clock
/// backed by its run loop. Calls run on the thread that owns the store.
public protocol SessionClock: AnyObject {
    /// The current wall time.
    var now: Timestamp { get }
    /// Runs `action` once, `delay` from now, unless cancelled.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any ScheduledCall
}

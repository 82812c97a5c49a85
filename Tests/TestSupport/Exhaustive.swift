import Foundation
import Testing

/// The tests that explore whole workloads or galleries crash state by crash state (minutes on two
/// cores in a debug build): run when `SESSIONCTL_TESTS=all`, as `.ci/run` sets it, and left out of
/// a plain `swift test`, which then takes a few minutes with its build.
public enum Exhaustive {
    /// Whether this run takes every test (`SESSIONCTL_TESTS=all`).
    public static let isOn = ProcessInfo.processInfo.environment["SESSIONCTL_TESTS"] == "all"
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only in a run of every test (`SESSIONCTL_TESTS=all`).
    public static var exhaustive: Self {
        .enabled(if: Exhaustive.isOn, "an exhaustive exploration: SESSIONCTL_TESTS=all swift test runs it, as .ci/run does")
    }
}

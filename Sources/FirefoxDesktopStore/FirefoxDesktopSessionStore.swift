@_spi(CrashTesting) import CrashSimulator
import FirefoxDesktop

/// Firefox desktop's session store as `crash-test --store firefox-desktop` explores it: a workload
/// played on the model of its `SessionWriter` (`FirefoxDesktopStoreRun`), each crash state judged
/// by what Firefox loads at the next launch (`FirefoxDesktopStoreJudge`).
public enum FirefoxDesktopSessionStore: CrashTestedStore {
    public typealias Judge = FirefoxDesktopStoreJudge

    public static var name: String { FirefoxDesktopFamily().name }
    public static var browserProtocol: FirefoxDesktopSaveProtocol { .firefox }
    public static var launchNote: String { "Firefox's launch writes nothing: a state of its store has no recovery-crash=" }

    public static func record(
        _ workload: Workload, saveProtocol: FirefoxDesktopSaveProtocol
    ) throws(SimulatorError) -> FirefoxDesktopStoreRun {
        try FirefoxDesktopStoreRun.record(workload, saveProtocol: saveProtocol)
    }
}

/// `crash-test --store firefox-desktop`: the crash test of `FirefoxDesktopSessionStore`.
public typealias FirefoxDesktopStoreCrashTest = StoreCrashTest<FirefoxDesktopSessionStore>

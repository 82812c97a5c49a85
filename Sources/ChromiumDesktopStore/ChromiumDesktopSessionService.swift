import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator

/// Chromium desktop's session service as `crash-test --store chromium-desktop` explores it: a
/// workload played on the model of its `CommandStorageBackend` (`ChromiumDesktopStoreRun`), each
/// crash state judged by what Chrome restores at the next launch (`ChromiumDesktopStoreJudge`).
public enum ChromiumDesktopSessionService: CrashTestedStore {
    public typealias Judge = ChromiumDesktopStoreJudge

    public static var name: String { ChromiumDesktopFamily().name }
    public static var browserProtocol: ChromiumDesktopSaveProtocol { .chromium }
    public static var launchNote: String {
        "a state of the chromium-desktop store has no recovery-crash=: it is judged by what Chrome restores before its launch deletes a file"
    }

    public static func record(
        _ workload: Workload, saveProtocol: ChromiumDesktopSaveProtocol
    ) throws(SimulatorError)
        -> ChromiumDesktopStoreRun
    {
        try ChromiumDesktopStoreRun.record(workload, saveProtocol: saveProtocol)
    }
}

/// `crash-test --store chromium-desktop`: the crash test of `ChromiumDesktopSessionService`.
public typealias ChromiumDesktopStoreCrashTest = StoreCrashTest<ChromiumDesktopSessionService>

@_spi(CrashTesting) import CrashSimulator
import FirefoxIOS

/// Firefox for iOS's tab data store as `crash-test --store firefox-ios` explores it: a workload
/// played on the model of its save protocol (`FirefoxIOSStoreRun`), each crash state judged by what
/// Firefox loads at the next launch (`FirefoxIOSStoreJudge`).
public enum FirefoxIOSTabDataStore: CrashTestedStore {
    public typealias Judge = FirefoxIOSStoreJudge

    public static var name: String { FirefoxIOSFamily().name }
    public static var browserProtocol: FirefoxIOSSaveProtocol { .firefox }
    public static var launchNote: String { "Firefox's launch writes nothing: a state of its store has no recovery-crash=" }

    public static func record(_ workload: Workload, saveProtocol: FirefoxIOSSaveProtocol) throws(SimulatorError) -> FirefoxIOSStoreRun {
        try FirefoxIOSStoreRun.record(workload, saveProtocol: saveProtocol)
    }
}

/// `crash-test --store firefox-ios`: the crash test of `FirefoxIOSTabDataStore`.
public typealias FirefoxIOSStoreCrashTest = StoreCrashTest<FirefoxIOSTabDataStore>

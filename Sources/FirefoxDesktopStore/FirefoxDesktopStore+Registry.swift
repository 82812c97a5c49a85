import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

extension FirefoxDesktopStoreCrashTest: BrowserStoreCrashTest {}
extension FirefoxDesktopStoreCrashTest.Configuration: BrowserStoreRunOptions {}
extension FirefoxDesktopStoreJudge: StoreJudging {}

extension CrashTestDocument {
    /// The fields of a run of Firefox desktop's store, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: FirefoxDesktopStoreCrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        return storeFields(
            browser: FirefoxDesktopStoreCrashTest.storeName, workload: configuration.workload, model: configuration.model,
            saveProtocol: configuration.saveProtocol.rawValue, seed: configuration.seed, operations: report.operations,
            saves: report.saves, result: report.result, outcomes: report.outcomes, maxFailures: maxFailures, reproducer: report.reproducer)
    }
}

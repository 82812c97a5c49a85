import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel
import SessionStore

extension FirefoxStoreCrashTest: BrowserStoreCrashTest {}
extension FirefoxStoreCrashTest.Configuration: BrowserStoreRunOptions {}
extension FirefoxStoreJudge: StoreJudging {}

extension CrashTestDocument {
    /// The fields of a run of Firefox for iOS's store, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: FirefoxStoreCrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        return storeFields(
            browser: FirefoxStoreCrashTest.storeName, workload: configuration.workload, model: configuration.model,
            saveProtocol: configuration.saveProtocol.rawValue, seed: configuration.seed, operations: report.operations,
            saves: report.saves, result: report.result, outcomes: report.outcomes, maxFailures: maxFailures, reproducer: report.reproducer)
    }
}

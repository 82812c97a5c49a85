import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

extension ChromiumDesktopStoreCrashTest: BrowserStoreCrashTest {}
extension ChromiumDesktopStoreCrashTest.Configuration: BrowserStoreRunOptions {}
extension ChromiumDesktopStoreJudge: StoreJudging {}

extension CrashTestDocument {
    /// The fields of a run of Chromium desktop's store, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: ChromiumDesktopStoreCrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        return storeFields(
            browser: ChromiumDesktopStoreCrashTest.storeName, workload: configuration.workload, model: configuration.model,
            saveProtocol: configuration.saveProtocol.rawValue, seed: configuration.seed, operations: report.operations,
            saves: report.saves, result: report.result, outcomes: report.outcomes, maxFailures: maxFailures, reproducer: report.reproducer)
    }
}

import ChromeIOS
import ChromiumDesktop
import ChromiumDesktopStore
import CrashSimulator
import FirefoxDesktop
import FirefoxDesktopStore
import FirefoxIOS
import FirefoxIOSStore
import SafariIOS
import SessionForensics
import SessionFormats

/// Every browser sessionctl reads, in the order recognition tries them: each one's family (with
/// its rulebook) and, where crash-test models its writer, its store. Adding a browser is its
/// module and one line here.
public enum BrowserRegistry {
    /// What crash-test explores of a browser's writes.
    enum CrashTestedStore {
        /// The model of the browser's own writer (`crash-test --store NAME`).
        case model(any BrowserStoreModel)
        /// The browser's files are what sessionctl's own store writes, which crash-test explores by default.
        case sessionctlsOwn
        /// Nothing: crash-test does not model the browser's writer.
        case none
    }

    /// Each browser's rulebook (which names its family) and what crash-test explores of its
    /// writes, in recognition order: a family that recognises by magic bytes before one that
    /// recognises by layout.
    static let browsers: [(rulebook: any BrowserRulebook, store: CrashTestedStore)] = [
        (ChromeIOSRulebook(), .sessionctlsOwn),
        (FirefoxIOSRulebook(), .model(FirefoxIOSStoreCrashTest.model)),
        (FirefoxDesktopRulebook(), .model(FirefoxDesktopStoreCrashTest.model)),
        (ChromiumDesktopRulebook(), .model(ChromiumDesktopStoreCrashTest.model)),
        (SafariIOSRulebook(), .none)
    ]

    /// Registers every browser's family, rulebook and store: what a program does before it reads
    /// (registering again changes nothing).
    public static func install() {
        BrowserRulebooks.register(browsers.map(\.rulebook))
        for (rulebook, store) in browsers {
            switch store {
            case .model(let model): BrowserStores.register([model])
            case .sessionctlsOwn: BrowserStores.registerDefaultStore(browser: rulebook.family.name)
            case .none: break
            }
        }
    }
}

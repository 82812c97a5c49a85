import ChromeIOS
import ChromiumDesktop
import ChromiumDesktopStore
import CrashSimulator
import FirefoxDesktop
import FirefoxDesktopStore
import FirefoxIOS
import FirefoxIOSStore
import SessionForensics
import SessionFormats

/// Every browser sessionctl reads, in the order recognition tries them: each one's family (with
/// its rulebook) and, where crash-test models its writer, its store. Adding a browser is its
/// module and one line here.
public enum BrowserRegistry {
    /// Each browser's rulebook (which names its family) and store model, in recognition order: a
    /// family that recognises by magic bytes before one that recognises by layout. No model: the
    /// family's files are what sessionctl's own store writes, which crash-test explores by default.
    static let browsers: [(rulebook: any BrowserRulebook, store: (any BrowserStoreModel)?)] = [
        (ChromeIOSRulebook(), nil),
        (FirefoxIOSRulebook(), FirefoxIOSStoreCrashTest.model),
        (FirefoxDesktopRulebook(), FirefoxDesktopStoreCrashTest.model),
        (ChromiumDesktopRulebook(), ChromiumDesktopStoreCrashTest.model)
    ]

    /// Registers every browser's family, rulebook and store: what a program does before it reads
    /// (registering again changes nothing).
    public static func install() {
        BrowserRulebooks.register(browsers.map(\.rulebook))
        BrowserStores.register(browsers.compactMap(\.store))
        if let own = browsers.first(where: { $0.store == nil }) { BrowserStores.registerDefaultStore(browser: own.rulebook.family.name) }
    }
}

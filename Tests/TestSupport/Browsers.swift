import BrowserRegistry

/// Every browser registered, as the command line registers them at its start: what a test that
/// reads an input through the shared code calls first (`init() { Browsers.install() }`).
public enum Browsers {
    public static func install() { BrowserRegistry.install() }
}

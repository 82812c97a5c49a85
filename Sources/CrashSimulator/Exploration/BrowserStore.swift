/// A browser's session store that crash-test models (`--store NAME`), with the save protocol a
/// run writes it with: the one place that lists the stores, so that a reproducer, a replay and
/// the command line name and tell them apart alike.
public enum BrowserStore: Sendable, Equatable {
    case firefoxIOS(FirefoxSaveProtocol)
    case firefoxDesktop(FirefoxDesktopSaveProtocol)
    case chromiumDesktop(ChromiumDesktopSaveProtocol)

    /// Every store's name, as `--store` and a reproducer's `store=` give it.
    public static let names = [
        FirefoxStoreCrashTest.storeName, FirefoxDesktopStoreCrashTest.storeName, ChromiumDesktopStoreCrashTest.storeName
    ]

    /// The store `name` written with the protocol `protocolName` (nil: the store's default, as
    /// Firefox or Chromium write); nil when there is no such store.
    /// - Throws: the names of the store's protocols, when it has none of that name.
    public init?(name: String, protocolName: String?) throws(BrowserStore.UnknownProtocol) {
        switch name {
        case FirefoxStoreCrashTest.storeName: self = .firefoxIOS(try Self.parse(protocolName, default: .firefox))
        case FirefoxDesktopStoreCrashTest.storeName: self = .firefoxDesktop(try Self.parse(protocolName, default: .firefox))
        case ChromiumDesktopStoreCrashTest.storeName: self = .chromiumDesktop(try Self.parse(protocolName, default: .chromium))
        default: return nil
        }
    }

    /// A protocol name the store does not have, with the names it has.
    public struct UnknownProtocol: Error, Sendable {
        public var known: [String]
    }

    private static func parse<P: RawRepresentable<String> & CaseIterable>(_ name: String?, default: P) throws(UnknownProtocol) -> P {
        guard let name else { return `default` }
        guard let parsed = P(rawValue: name) else { throw UnknownProtocol(known: P.allCases.map(\.rawValue)) }
        return parsed
    }

    /// The store's name.
    public var name: String {
        switch self {
        case .firefoxIOS: FirefoxStoreCrashTest.storeName
        case .firefoxDesktop: FirefoxDesktopStoreCrashTest.storeName
        case .chromiumDesktop: ChromiumDesktopStoreCrashTest.storeName
        }
    }

    /// The save protocol's name.
    public var protocolName: String {
        switch self {
        case .firefoxIOS(let saveProtocol): saveProtocol.rawValue
        case .firefoxDesktop(let saveProtocol): saveProtocol.rawValue
        case .chromiumDesktop(let saveProtocol): saveProtocol.rawValue
        }
    }
}

/// A crash test of one browser's store: its configuration, run, and report.
public protocol BrowserStoreCrashTest {
    associatedtype Configuration: BrowserStoreRunOptions
    associatedtype Report
    init(configuration: Configuration)
    func run(progress: ((Int) -> Void)?) throws(SimulatorError) -> Report
}

extension FirefoxStoreCrashTest: BrowserStoreCrashTest {}
extension FirefoxDesktopStoreCrashTest: BrowserStoreCrashTest {}
extension ChromiumDesktopStoreCrashTest: BrowserStoreCrashTest {}

/// The options every browser store's run takes, its save protocol among them.
public protocol BrowserStoreRunOptions {
    associatedtype SaveProtocol
    init()
    var saveProtocol: SaveProtocol { get set }
    var workload: String { get set }
    var model: PersistenceModel { get set }
    var seed: UInt64 { get set }
    var maxStates: Int { get set }
    var keptFailures: Int { get set }
}

extension FirefoxStoreCrashTest.Configuration: BrowserStoreRunOptions {}
extension FirefoxDesktopStoreCrashTest.Configuration: BrowserStoreRunOptions {}
extension ChromiumDesktopStoreCrashTest.Configuration: BrowserStoreRunOptions {}

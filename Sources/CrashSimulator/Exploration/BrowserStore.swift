import Synchronization

/// A browser's session store that crash-test models (`--store NAME`), with the save protocol a
/// run writes it with: what a reproducer, a replay and the command line name and tell apart alike.
public struct BrowserStore: Sendable, Equatable {
    /// The store's model (`BrowserStores` lists those registered).
    public let model: any BrowserStoreModel
    /// The save protocol's name, one of the model's `protocolNames`.
    public let protocolName: String

    /// The store `model` written with `protocolName`, which must be one of its protocols.
    public init(model: any BrowserStoreModel, protocolName: String) {
        self.model = model
        self.protocolName = protocolName
    }

    /// The registered store `name` written with the protocol `protocolName` (nil: the store's
    /// default, as its browser writes); nil when there is no such store.
    /// - Throws: the names of the store's protocols, when it has none of that name.
    public init?(name: String, protocolName: String?) throws(BrowserStore.UnknownProtocol) {
        guard let model = BrowserStores.named(name) else { return nil }
        let chosen = protocolName ?? model.defaultProtocol
        guard model.protocolNames.contains(chosen) else { throw UnknownProtocol(known: model.protocolNames) }
        self.init(model: model, protocolName: chosen)
    }

    /// Every registered store's name, as `--store` and a reproducer's `store=` give it.
    public static var names: [String] { BrowserStores.all.map(\.name) }

    /// The store's name.
    public var name: String { model.name }

    public static func == (lhs: BrowserStore, rhs: BrowserStore) -> Bool {
        lhs.name == rhs.name && lhs.protocolName == rhs.protocolName
    }

    /// A protocol name the store does not have, with the names it has.
    public struct UnknownProtocol: Error, Sendable {
        public var known: [String]
    }
}

/// The stores registered by the program at its start (the `BrowserRegistry` target lists every
/// browser's; the crash-test engine names none).
public enum BrowserStores {
    private static let registered = Mutex<[any BrowserStoreModel]>([])

    /// Every registered store, in the order they were registered.
    public static var all: [any BrowserStoreModel] { registered.withLock { $0 } }

    /// Registers `stores`, in order, each once (by name).
    public static func register(_ stores: [any BrowserStoreModel]) {
        registered.withLock { list in
            for store in stores where !list.contains(where: { $0.name == store.name }) { list.append(store) }
        }
    }

    /// The store named `name`.
    public static func named(_ name: String) -> (any BrowserStoreModel)? { all.first { $0.name == name } }

    private static let defaultBrowser = Mutex<String?>(nil)

    /// The family whose files sessionctl's own store writes (the store crash-test explores when
    /// no `--store` is given), as the registry names it; "unregistered" before it does.
    public static var defaultStoreBrowser: String { defaultBrowser.withLock { $0 } ?? "unregistered" }

    /// Names the family whose files sessionctl's own store writes.
    public static func registerDefaultStore(browser: String) {
        defaultBrowser.withLock { $0 = browser }
    }
}

/// The browser that wrote an input, as precisely as it is known: within a family, the product
/// (Chromium desktop's Chrome, Edge, Brave, Vivaldi, Opera or Chromium), and what says so.
public struct BrowserProduct: Sendable, Equatable {
    /// The stable name JSON documents carry in `product` (`edge`, `chrome`, `firefox`).
    public var name: String
    /// The name shown to people ("Microsoft Edge").
    public var displayName: String
    /// What says so, in a phrase ("known from its Preferences", "which one is not known: ...");
    /// documents carry it in `productEvidence`.
    public var evidence: String

    public init(name: String, displayName: String, evidence: String) {
        self.name = name
        self.displayName = displayName
        self.evidence = evidence
    }
}

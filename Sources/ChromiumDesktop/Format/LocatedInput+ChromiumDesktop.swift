import Archive
import FileSystemKit
import SessionFormats
import SessionModel

extension LocatedInput {
    /// For a Chromium desktop profile: what its `Preferences` says about restoring.
    public var chromiumDesktop: ChromiumDesktopSettings? {
        get { familySettings as? ChromiumDesktopSettings }
        set { familySettings = newValue }
    }

    /// For a Chromium desktop input: the browser of the family that wrote it, and what says so,
    /// when its place or preferences do.
    public var chromiumProduct: (product: ChromiumProduct, evidence: String)? {
        get { placedProduct.flatMap { product in ChromiumProduct(rawValue: product.name).map { ($0, product.evidence) } } }
        set {
            placedProduct = newValue.map {
                BrowserProduct(name: $0.product.rawValue, displayName: $0.product.displayName, evidence: $0.evidence)
            }
        }
    }
}

extension SessionSource {
    /// For a Chromium desktop session file: the browser of the family that wrote it, when the
    /// profile's place or preferences say (its commands are read in that browser's numbering).
    public var chromiumProduct: ChromiumProduct? { productName.flatMap(ChromiumProduct.init(rawValue:)) }
}

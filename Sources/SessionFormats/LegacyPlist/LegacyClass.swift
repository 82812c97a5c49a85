/// The classes of Chrome's legacy session archive, with the names older versions used for them.
package enum LegacyClass: Equatable {
    case sessionIOS
    case window
    case sessionStorage
    case navigationItem
    case certificateCache
    case certificate
    case userData
    case tabGroup
    case collection
    case dictionary
    case other

    private static let byName: [String: LegacyClass] = [
        "SessionIOS": .sessionIOS,
        "SessionWindowIOS": .window, "SessionWindow": .window,
        "CRWSessionStorage": .sessionStorage, "SessionController": .sessionStorage,
        "CRWSessionController": .sessionStorage, "CRWNavigationManagerStorage": .sessionStorage,
        "CRWNavigationItemStorage": .navigationItem, "SessionEntry": .navigationItem, "CRWSessionEntry": .navigationItem,
        "CRWSessionCertificatePolicyCacheStorage": .certificateCache,
        "CRWSessionCertificateStorage": .certificate,
        "CRWSessionUserData": .userData,
        "SessionTabGroup": .tabGroup,
        "NSArray": .collection, "NSMutableArray": .collection, "NSSet": .collection, "NSMutableSet": .collection,
        "NSOrderedSet": .collection, "NSMutableOrderedSet": .collection,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
        "SessionCertificatePolicyManager": .certificateCache, "CRWSessionCertificatePolicyManager": .certificateCache
    ]

    /// Class names of Chrome M57-M59 archives. Chrome registered them as aliases of the current
    /// classes until about 2020; current Chrome decodes with a plain NSKeyedUnarchiver, fails on
    /// them and loads nothing of the file.
    package static let retiredNames: Set<String> = [
        "SessionWindow", "SessionController", "CRWSessionController", "CRWNavigationManagerStorage",
        "SessionEntry", "CRWSessionEntry", "SessionCertificatePolicyManager", "CRWSessionCertificatePolicyManager"
    ]

    /// The class of an archived object: its `$classname`, else the first known name of its `$classes`.
    package init(_ object: ArchivedObject) {
        if let known = LegacyClass.byName[object.className] {
            self = known
        } else {
            self = object.classChain.lazy.compactMap { LegacyClass.byName[$0] }.first ?? .other
        }
    }

    /// The current class name, for messages.
    package var name: String {
        switch self {
        case .sessionIOS: return "SessionIOS"
        case .window: return "SessionWindowIOS"
        case .sessionStorage: return "CRWSessionStorage"
        case .navigationItem: return "CRWNavigationItemStorage"
        case .certificateCache: return "CRWSessionCertificatePolicyCacheStorage"
        case .certificate: return "CRWSessionCertificateStorage"
        case .userData: return "CRWSessionUserData"
        case .tabGroup: return "SessionTabGroup"
        case .collection: return "NSArray"
        case .dictionary: return "NSDictionary"
        case .other: return "an unknown class"
        }
    }
}

import SessionModel

/// What one decoded value of a keyed archive stands for once read: objects (tabs, entries,
/// headers, certificates, groups) and the bytes of its strings and data as they are materialised.
package struct ExpansionWeight: Sendable, Hashable {
    package var objects = 0
    package var bytes = 0

    /// What was charged between two readings of `ExpansionBudget.spent`.
    package static func - (left: ExpansionWeight, right: ExpansionWeight) -> ExpansionWeight {
        ExpansionWeight(objects: left.objects - right.objects, bytes: left.bytes - right.bytes)
    }

    /// Every stored property, as given.
    package init(objects: Int = 0, bytes: Int = 0) {
        self.objects = objects
        self.bytes = bytes
    }
}

extension ExpansionWeight {
    /// A navigation item and its headers, with their strings.
    package init(_ item: NavigationItem) {
        objects = 1 + item.headers.count
        bytes =
            item.url.utf8.count + item.virtualURL.utf8.count + item.title.utf8.count + (item.referrer?.url.utf8.count ?? 0)
            + item.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// What a tab weighs in objects, besides its entries: readers lay out a model tab, a list
    /// entry and findings for each (kilobytes), where entries are shared. A tab Chrome wrote takes
    /// this many times `ExpansionBudget.storedBytesPerObject` bytes (its UUID alone is 36).
    package static let tabObjects = 4

    /// A tab itself, without its entries and certificates (charged one by one).
    package init(_ tab: LegacyTab) {
        objects = Self.tabObjects
        bytes = (tab.stableIdentifier?.utf8.count ?? 0) + (tab.userAgentKey?.utf8.count ?? 0)
    }

    /// A certificate decision: its DER bytes and host.
    package init(_ record: CertificateRecord) {
        objects = 1
        bytes = record.certificate.count + record.host.utf8.count
    }

    /// A tab group and its title.
    package init(_ group: TabGroup) {
        objects = 1
        bytes = group.title.utf8.count
    }
}

/// A bound on what the object graph of a keyed archive may expand to when every reference is
/// followed, so that the cost of reading a session.plist stays in proportion to its size.
///
/// NSKeyedArchiver stores an object once however often it is referred to: 3,000 tabs can refer to
/// one tab whose entries refer 3,000 times to one navigation item, 6.5 KB that a reader following
/// every reference expands to 9 million items. The decoder decodes each object once, and charges
/// this budget with the weight of every reference it follows; past either limit the file is damage.
///
/// A session Chrome wrote does not come near the limits: it shares little (equal strings at most),
/// stores each entry, certificate and group as a dictionary of several fields, each far more than
/// `storedBytesPerObject` bytes with its values (a header is two references and two strings; a
/// tab weighs `ExpansionWeight.tabObjects`), and no string or data decodes to more than three
/// times its stored bytes (an invalid UTF-8 byte becomes U+FFFD). The fixed parts are for small
/// files: 50,000 objects is 650 tabs of Chrome's 75 entries (`ProfileLayout.maxNavigationItems`).
/// A 6.5 KB file may expand to about 50,400 objects and 64 MiB; a 2 MB file to 175,000 objects
/// (at most 43,750 tabs) and 72 MiB; a 100 MB file, some 700,000 entries when Chrome writes it,
/// to 6.3 million objects.
///
/// Memory stays in proportion to the file whatever the budget: a tab decoded once is shared by
/// every reference to it, so only one tab's entries are ever laid out from one list of references.
package struct ExpansionBudget: Sendable {
    /// Objects any archive may expand to, whatever its size.
    package static let baseObjects = 50_000
    /// Objects allowed for the bytes of the file: one per `storedBytesPerObject` bytes.
    package static let storedBytesPerObject = 16
    /// Bytes of strings and data any archive may expand to, whatever its size (64 MiB).
    package static let baseBytes = 64 << 20
    /// Bytes of strings and data allowed for each byte of the file.
    package static let decodedBytesPerStoredByte = 4

    /// The most objects the archive may expand to.
    package let maxObjects: Int
    /// The most bytes of strings and data the archive may expand to.
    package let maxBytes: Int
    /// What the references followed so far expand to.
    package private(set) var spent = ExpansionWeight()

    /// The budget of an archive stored in `storedSize` bytes.
    package init(storedSize: Int) {
        let size = max(0, storedSize)
        maxObjects = Self.baseObjects + size / Self.storedBytesPerObject
        let (scaled, overflow) = size.multipliedReportingOverflow(by: Self.decodedBytesPerStoredByte)
        maxBytes = overflow ? Int.max : Self.baseBytes.addingReportingOverflow(scaled).partialValue
    }

    /// Adds `weight`; past either limit, damage at `offset` (the object whose reference went too far).
    package mutating func charge(_ weight: ExpansionWeight, at offset: Int) throws(PlistDamage) {
        spent.objects = spent.objects.addingReportingOverflow(weight.objects).partialValue
        spent.bytes = spent.bytes.addingReportingOverflow(weight.bytes).partialValue
        if spent.objects > maxObjects || spent.objects < 0 {
            throw PlistDamage(
                offset: offset,
                reason:
                    "its object references expand past \(Self.grouped(maxObjects)) objects, more than a file of its size can hold without sharing (a hostile or damaged archive)"
            )
        }
        if spent.bytes > maxBytes || spent.bytes < 0 {
            throw PlistDamage(
                offset: offset,
                reason:
                    "its object references expand past \(Self.grouped(maxBytes)) bytes of strings and data, more than a file of its size can hold without sharing (a hostile or damaged archive)"
            )
        }
    }

    /// `number` with thousands separated by commas.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

import SessionModel

/// The parts of a tab and of a window below the tab list: navigation items, certificates, user
/// data and tab groups.
extension LegacyArchiveDecoder {
    /// One navigation item, its referrer and HTTP headers.
    mutating func navigationItem(_ object: ArchivedObject) throws(PlistDamage) -> NavigationItem {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        func text(_ key: String) throws(PlistDamage) -> String {
            try object.bytes(key).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        var item = NavigationItem(
            url: try text("urlString"), virtualURL: try text("virtualUrlString"), title: try object.string("title") ?? "",
            timestamp: Timestamp(microseconds: try object.integer("timestamp") ?? 0),
            // A missing user agent decodes as NONE (the ivar's zero value).
            userAgent: try object.bytes("userAgentType").map { LegacyUserAgent.value(of: String(decoding: $0, as: UTF8.self)) } ?? .none
        )
        if object.has("referrerUrlString") {
            let referrer = try text("referrerUrlString")
            if !referrer.isEmpty {
                let policy = try object.integer("referrerPolicy") ?? 0
                item.referrer = Referrer(url: referrer, policy: ReferrerPolicy(rawValue: Int32(clamping: policy)))
            }
        } else if let url = try oldReferrer(object), !url.isEmpty {
            // The old `referrer` key holds an NSURL; Chrome gives it the default policy.
            item.referrer = Referrer(url: url, policy: .default)
        }
        if let uid = try object.reference("httpHeaders") {
            let headers = try expect(uid, referrer: object.index, [.dictionary], what: "\(object.className).httpHeaders")
            for entry in try headers.dictionaryEntries() {
                guard case .string(let name)? = try archive.scalar(entry.key, referrer: headers.index),
                    case .string(let value)? = try archive.scalar(entry.value, referrer: headers.index)
                else {
                    throw PlistDamage(offset: headers.offset, reason: "\(object.className).httpHeaders holds something other than strings")
                }
                item.headers.append(HTTPHeader(name: name, value: value))
            }
        }
        return item
    }

    /// The string of the old `referrer` key's NSURL (its `NS.relative`), or nil when there is none
    /// or it is not an archived object (Chrome reads an empty URL then).
    func oldReferrer(_ item: ArchivedObject) throws(PlistDamage) -> String? {
        guard let uid = try? item.reference("referrer"), isObject(uid, referrer: item.index),
            let url = try archive.object(uid, referrer: item.index)
        else { return nil }
        return try? url.string("NS.relative")
    }

    /// The certificate decisions of a tab's certificate cache (the current key, else the old one).
    mutating func certificates(_ cache: ArchivedObject) throws(PlistDamage) -> [CertificateRecord] {
        active.insert(cache.uid)
        defer { active.remove(cache.uid) }
        var records: [CertificateRecord] = []
        for (index, uid) in try collection(cache, "kCertificateStoragesKey").enumerated() {
            let storage = try expect(uid, referrer: cache.index, [.certificate], what: "kCertificateStoragesKey[\(index)]")
            let status = try storage.integer("StatusSerializationKey") ?? 0
            records.append(
                CertificateRecord(
                    certificate: try storage.bytes("CertificateSerializationKey") ?? [],
                    host: try storage.string("HostSerializationKey") ?? "",
                    status: UInt32(truncatingIfNeeded: status)
                ))
        }
        return records.isEmpty ? try oldCertificates(cache) : records
    }

    /// The certificates of the old `allowedCertificates` key: a set of [DER data, host, status]
    /// arrays, read by Chrome when the current key holds none. Entries of another shape are skipped.
    func oldCertificates(_ cache: ArchivedObject) throws(PlistDamage) -> [CertificateRecord] {
        guard let uid = try? cache.reference("allowedCertificates"), isObject(uid, referrer: cache.index),
            let set = try archive.object(uid, referrer: cache.index), LegacyClass(set) == .collection
        else { return [] }
        var records: [CertificateRecord] = []
        for element in try set.elements() {
            guard isObject(element, referrer: set.index), let array = try archive.object(element, referrer: set.index),
                LegacyClass(array) == .collection
            else { continue }
            let parts = try array.elements()
            guard parts.count == 3 else { continue }
            let certificate: [UInt8]
            switch try archive.scalar(parts[0], referrer: array.index) {
            case .data(let bytes)?: certificate = Array(bytes)
            default:
                guard isObject(parts[0], referrer: array.index), let wrapped = try archive.object(parts[0], referrer: array.index),
                    let bytes = try? wrapped.bytes("NS.data")
                else { continue }
                certificate = bytes
            }
            guard case .string(let host)? = try archive.scalar(parts[1], referrer: array.index), !host.isEmpty,
                case .integer(let status)? = try archive.scalar(parts[2], referrer: array.index)
            else { continue }
            records.append(CertificateRecord(certificate: certificate, host: host, status: UInt32(truncatingIfNeeded: status)))
        }
        return records
    }

    /// Reads `PinnedState`, `OpenerIndex`, `OpenerNavigationIndex` and, for a tab without a stable
    /// identifier, `TabId` from the user data: a `CRWSessionUserData`'s `$0` dictionary, or the
    /// bare dictionary of files before M99.
    mutating func applyUserData(_ userData: ArchivedObject, to tab: inout LegacyTab) throws(PlistDamage) {
        active.insert(userData.uid)
        defer { active.remove(userData.uid) }
        let dictionary: ArchivedObject
        if LegacyClass(userData) == .dictionary {
            dictionary = userData
        } else {
            guard let uid = try userData.reference("$0") else { return }
            dictionary = try expect(uid, referrer: userData.index, [.dictionary], what: "CRWSessionUserData.$0")
        }
        var values: [String: PlistObject] = [:]
        for entry in try dictionary.dictionaryEntries() {
            guard case .string(let key)? = try archive.scalar(entry.key, referrer: dictionary.index) else { continue }
            values[key] = try archive.scalar(entry.value, referrer: dictionary.index)
        }
        func number(_ key: String) throws(PlistDamage) -> Int64? {
            switch values[key] {
            case nil: return nil
            case .integer(let value)?: return value
            case .bool(let flag)?: return flag ? 1 : 0
            case let other?:
                throw PlistDamage(offset: dictionary.offset, reason: "user data \(key) is a \(other.kindName), expected a number")
            }
        }
        tab.pinned = try number("PinnedState").map { $0 != 0 } ?? false
        if tab.stableIdentifier?.isEmpty ?? true, case .string(let tabID)? = values["TabId"], !tabID.isEmpty {
            tab.stableIdentifier = tabID
        }
        if let index = try number("OpenerIndex"), let navigationIndex = try number("OpenerNavigationIndex") {
            tab.opener = Opener(index: Int32(clamping: index), navigationIndex: Int32(clamping: navigationIndex))
        }
    }

    /// One tab group, its id read as strictly as Chrome reads it.
    func tabGroup(_ object: ArchivedObject) throws(PlistDamage) -> TabGroup {
        let idText = try object.string("kTabGroupIdKey")
        return TabGroup(
            start: Int32(clamping: try object.integer("kRangeStartKey") ?? 0),
            count: Int32(clamping: try object.integer("kRangeCountKey") ?? 0),
            title: try object.string("kTitleKey") ?? "",
            color: TabGroupColor(rawValue: Int32(clamping: try object.integer("kColorIdKey") ?? 0)),
            collapsed: try object.bool("kcollapsedStateKey") ?? false,
            // Chrome parses the id strictly (32 upper-case hex digits) and makes a new one otherwise.
            id: idText.flatMap { TabGroupID(tokenString: $0) }
        )
    }
}

import SessionModel

/// Writes a `LegacyWindow` as Chrome's NSKeyedArchiver archive, with the keys Chrome's encoders use
/// and the values they leave out (empty URLs, empty titles, absent referrers) left out.
struct LegacyArchiveEncoder {
    private var archive = KeyedArchiveBuilder()

    /// The archive's property list value for `window`.
    static func encode(_ window: LegacyWindow) -> PlistValue {
        var encoder = LegacyArchiveEncoder()
        let root = encoder.window(window)
        return encoder.archive.finish(root: root)
    }

    private mutating func window(_ window: LegacyWindow) -> UInt64 {
        let uid = archive.reserve()
        let sessions = window.tabs.map { tab($0) }
        let groups = window.groups.map { tabGroup($0) }
        archive.set(
            uid, className: "SessionWindowIOS",
            [
                "selectedIndex": .integer(window.selectedIndex),
                "sessions": .uid(archive.array(sessions)),
                "tabGroups": .uid(archive.array(groups))
            ])
        return uid
    }

    private mutating func tab(_ tab: LegacyTab) -> UInt64 {
        let uid = archive.reserve()
        var fields: [String: PlistValue] = [
            "openedByDOM": .bool(tab.openedByDOM),
            "lastCommittedItemIndex": .integer(tab.lastCommittedItemIndex),
            "entries": .uid(archive.array(tab.items.map { item($0) })),
            "userAgentKey": .data(Array((tab.userAgentKey ?? "AUTOMATIC").utf8))
        ]
        if !tab.certificates.isEmpty {
            fields["certificatePolicyCacheStorage"] = .uid(certificateCache(tab.certificates))
        }
        var userData: [(String, PlistValue)] = []
        if tab.pinned { userData.append(("PinnedState", .bool(true))) }
        if let opener = tab.opener {
            userData.append(("OpenerIndex", .integer(Int64(opener.index))))
            userData.append(("OpenerNavigationIndex", .integer(Int64(opener.navigationIndex))))
        }
        if !userData.isEmpty {
            let data = archive.reserve()
            archive.set(data, className: "CRWSessionUserData", ["$0": .uid(archive.dictionary(userData))])
            fields["serializedUserData"] = .uid(data)
        }
        if let stable = tab.stableIdentifier { fields["stableIdentifier"] = .uid(archive.string(stable)) }
        if !tab.lastActiveTime.isNull { fields["lastActiveTime"] = .integer(tab.lastActiveTime.microseconds) }
        if !tab.creationTime.isNull { fields["creationTime"] = .integer(tab.creationTime.microseconds) }
        if let id = tab.uniqueIdentifier { fields["uniqueIdentifier"] = .integer(id) }
        archive.set(uid, className: "CRWSessionStorage", fields)
        return uid
    }

    private mutating func item(_ item: NavigationItem) -> UInt64 {
        let uid = archive.reserve()
        var fields: [String: PlistValue] = [
            "timestamp": .integer(item.timestamp.microseconds),
            "userAgentType": .data(Array(LegacyUserAgent.word(for: item.userAgent).utf8))
        ]
        if !item.url.isEmpty { fields["urlString"] = .data(Array(item.url.utf8)) }
        if !item.virtualURL.isEmpty, item.virtualURL != item.url { fields["virtualUrlString"] = .data(Array(item.virtualURL.utf8)) }
        if let referrer = item.referrer, !referrer.url.isEmpty {
            fields["referrerUrlString"] = .data(Array(referrer.url.utf8))
            fields["referrerPolicy"] = .integer(Int64(referrer.policy.rawValue))
        }
        if !item.title.isEmpty { fields["title"] = .uid(archive.string(item.title)) }
        if !item.headers.isEmpty {
            fields["httpHeaders"] = .uid(archive.dictionary(item.headers.map { ($0.name, .uid(archive.string($0.value))) }))
        }
        archive.set(uid, className: "CRWNavigationItemStorage", fields)
        return uid
    }

    private mutating func certificateCache(_ records: [CertificateRecord]) -> UInt64 {
        let uid = archive.reserve()
        let storages = records.map { record -> UInt64 in
            let storage = archive.reserve()
            archive.set(
                storage, className: "CRWSessionCertificateStorage",
                [
                    "CertificateSerializationKey": .uid(archive.value(.data(record.certificate))),
                    "HostSerializationKey": .uid(archive.string(record.host)),
                    "StatusSerializationKey": .integer(Int64(record.status))
                ])
            return storage
        }
        archive.set(
            uid, className: "CRWSessionCertificatePolicyCacheStorage",
            [
                "kCertificateStoragesKey": .uid(archive.array(storages, className: "NSSet"))
            ])
        return uid
    }

    private mutating func tabGroup(_ group: TabGroup) -> UInt64 {
        let uid = archive.reserve()
        var fields: [String: PlistValue] = [
            "kRangeStartKey": .integer(Int64(group.start)),
            "kRangeCountKey": .integer(Int64(group.count)),
            "kTitleKey": .uid(archive.string(group.title)),
            "kColorIdKey": .integer(Int64(group.color.rawValue)),
            "kcollapsedStateKey": .bool(group.collapsed)
        ]
        if let id = group.id { fields["kTabGroupIdKey"] = .uid(archive.string(id.hex)) }
        archive.set(uid, className: "SessionTabGroup", fields)
        return uid
    }
}

import Foundation
import SessionModel
import SwiftProtobuf

// Conversions between the generated web.proto / ios.proto messages and the model values.

extension Timestamp {
    init(_ proto: Web_Proto_Timestamp) { self.init(microseconds: proto.microseconds) }
    var proto: Web_Proto_Timestamp {
        var message = Web_Proto_Timestamp()
        message.microseconds = microseconds
        return message
    }
}

extension UserAgent {
    init(_ proto: Web_Proto_UserAgentType) { self.init(rawValue: Int32(truncatingIfNeeded: proto.rawValue)) }
    var proto: Web_Proto_UserAgentType { Web_Proto_UserAgentType(rawValue: Int(rawValue)) ?? .UNRECOGNIZED(Int(rawValue)) }
}

extension ReferrerPolicy {
    init(_ proto: Web_Proto_ReferrerPolicy) { self.init(rawValue: Int32(truncatingIfNeeded: proto.rawValue)) }
    var proto: Web_Proto_ReferrerPolicy { Web_Proto_ReferrerPolicy(rawValue: Int(rawValue)) ?? .UNRECOGNIZED(Int(rawValue)) }
}

extension TabGroupColor {
    init(_ proto: Ios_Proto_TabGroupColorId) { self.init(rawValue: Int32(truncatingIfNeeded: proto.rawValue)) }
    var proto: Ios_Proto_TabGroupColorId { Ios_Proto_TabGroupColorId(rawValue: Int(rawValue)) ?? .UNRECOGNIZED(Int(rawValue)) }
}

extension NavigationItem {
    init(_ proto: Web_Proto_NavigationItemStorage) {
        self.init(
            url: proto.url, virtualURL: proto.virtualURL, title: proto.title,
            timestamp: Timestamp(proto.timestamp), userAgent: UserAgent(proto.userAgent),
            referrer: proto.hasReferrer ? Referrer(url: proto.referrer.url, policy: ReferrerPolicy(proto.referrer.policy)) : nil,
            headers: proto.httpRequestHeaders.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
            securityScopedFileResource: [UInt8](proto.securityScopedFileResource),
            unknownFields: proto.unknownBytes
        )
    }

    var proto: Web_Proto_NavigationItemStorage {
        var message = Web_Proto_NavigationItemStorage()
        message.url = url
        message.virtualURL = virtualURL
        message.title = title
        message.timestamp = timestamp.proto
        message.userAgent = userAgent.proto
        if let referrer {
            var storage = Web_Proto_ReferrerStorage()
            storage.url = referrer.url
            storage.policy = referrer.policy.proto
            message.referrer = storage
        }
        if !headers.isEmpty {
            message.httpRequestHeaders.headers = headers.map { header in
                var storage = Web_Proto_HttpHeaderStorage()
                storage.name = header.name
                storage.value = header.value
                return storage
            }
        }
        message.securityScopedFileResource = Data(securityScopedFileResource)
        return message.addingUnknown(unknownFields)
    }
}

extension TabHistory {
    init(_ proto: Web_Proto_WebStateStorage) {
        self.init(
            hasOpener: proto.hasOpener_p, userAgent: UserAgent(proto.userAgent),
            lastCommittedIndex: proto.navigation.lastCommittedItemIndex,
            items: proto.navigation.items.map(NavigationItem.init),
            certificates: proto.certsCache.certs.map {
                CertificateRecord(certificate: [UInt8]($0.certificate), host: $0.host, status: $0.status)
            },
            unknownFields: proto.unknownBytes,
            navigationUnknownFields: proto.navigation.unknownBytes
        )
    }

    /// The data.pb message: metadata left out, as Chrome writes it.
    var proto: Web_Proto_WebStateStorage {
        var message = Web_Proto_WebStateStorage()
        message.hasOpener_p = hasOpener
        message.userAgent = userAgent.proto
        var navigation = Web_Proto_NavigationStorage()
        navigation.lastCommittedItemIndex = lastCommittedIndex
        navigation.items = items.map(\.proto)
        message.navigation = navigation.addingUnknown(navigationUnknownFields)
        if !certificates.isEmpty {
            message.certsCache.certs = certificates.map { record in
                var storage = Web_Proto_CertificateStorage()
                storage.certificate = Data(record.certificate)
                storage.host = record.host
                storage.status = record.status
                return storage
            }
        }
        return message.addingUnknown(unknownFields)
    }
}

extension Tab {
    init(_ proto: Ios_Proto_WebStateListItemStorage, pinned: Bool) {
        let metadata = proto.metadata
        self.init(
            id: proto.identifier, title: metadata.activePage.pageTitle, url: metadata.activePage.pageURL,
            creationTime: Timestamp(metadata.creationTime), lastActiveTime: Timestamp(metadata.lastActiveTime),
            navigationItemCount: metadata.navigationItemCount,
            opener: proto.hasOpener ? Opener(index: proto.opener.index, navigationIndex: proto.opener.navigationIndex) : nil,
            pinned: pinned, history: nil, unknownFields: proto.unknownBytes,
            metadataUnknownFields: metadata.unknownBytes
        )
    }

    /// The list item of session_metadata.pb; metadata and its timestamps always written.
    var proto: Ios_Proto_WebStateListItemStorage {
        var message = Ios_Proto_WebStateListItemStorage()
        message.identifier = id
        if let opener {
            var storage = Ios_Proto_OpenerStorage()
            storage.index = opener.index
            storage.navigationIndex = opener.navigationIndex
            message.opener = storage
        }
        var metadata = Web_Proto_WebStateMetadataStorage()
        metadata.creationTime = creationTime.proto
        metadata.lastActiveTime = lastActiveTime.proto
        var page = Web_Proto_PageMetadataStorage()
        page.pageTitle = title
        page.pageURL = url
        metadata.activePage = page
        metadata.navigationItemCount = navigationItemCount
        message.metadata = metadata.addingUnknown(metadataUnknownFields)
        return message.addingUnknown(unknownFields)
    }
}

extension TabGroup {
    init(_ proto: Ios_Proto_TabGroupStorage) {
        self.init(
            start: proto.range.start, count: proto.range.count, title: proto.title,
            color: TabGroupColor(proto.color), collapsed: proto.collapsed,
            id: proto.hasTabGroupID ? TabGroupID(high: proto.tabGroupID.high, low: proto.tabGroupID.low) : nil,
            unknownFields: proto.unknownBytes
        )
    }

    var proto: Ios_Proto_TabGroupStorage {
        var message = Ios_Proto_TabGroupStorage()
        message.range.start = start
        message.range.count = count
        message.title = title
        message.color = color.proto
        message.collapsed = collapsed
        if let id {
            message.tabGroupID.high = id.high
            message.tabGroupID.low = id.low
        }
        return message.addingUnknown(unknownFields)
    }
}

extension Session {
    init(_ proto: Ios_Proto_WebStateListStorage, id: SessionID, incognito: Bool) {
        let pinned = Int(proto.pinnedItemCount)
        self.init(
            id: id, incognito: incognito, format: .optimized, activeIndex: proto.activeIndex,
            pinnedCount: proto.pinnedItemCount,
            tabs: proto.items.enumerated().map { Tab($0.element, pinned: $0.offset < pinned) },
            groups: proto.groups.map(TabGroup.init), unknownFields: proto.unknownBytes
        )
    }

    var proto: Ios_Proto_WebStateListStorage {
        var message = Ios_Proto_WebStateListStorage()
        message.items = tabs.map(\.proto)
        message.activeIndex = activeIndex
        message.pinnedItemCount = pinnedCount
        message.groups = groups.map(\.proto)
        return message.addingUnknown(unknownFields)
    }
}

/// What the wire scanner expects of a field of a known message.
indirect enum WireFieldKind: Sendable {
    case varint
    case bool
    /// An enum; values outside `range` are reported as out of range (they parse, but Chrome crashes on them).
    case enumeration(ClosedRange<Int64>)
    case string
    case bytes
    case message(WireSchema)
}

/// The field layout of a protobuf message, enough to scan bytes and point at the first bad one.
struct WireSchema: Sendable {
    let name: String
    let fields: [Int: WireFieldKind]

    static let timestamp = WireSchema(name: "Timestamp", fields: [1: .varint])
    static let pageMetadata = WireSchema(name: "PageMetadataStorage", fields: [1: .string, 2: .string])
    static let webStateMetadata = WireSchema(
        name: "WebStateMetadataStorage",
        fields: [
            1: .message(timestamp), 2: .message(timestamp), 3: .message(pageMetadata), 4: .varint
        ])
    static let userAgent = WireFieldKind.enumeration(0...3)
    static let referrer = WireSchema(name: "ReferrerStorage", fields: [1: .string, 2: .enumeration(0...8)])
    static let header = WireSchema(name: "HttpHeaderStorage", fields: [1: .string, 2: .string])
    static let headerList = WireSchema(name: "HttpHeaderListStorage", fields: [1: .message(header)])
    static let navigationItem = WireSchema(
        name: "NavigationItemStorage",
        fields: [
            1: .string, 2: .string, 3: .string, 4: .message(timestamp), 5: userAgent,
            6: .message(referrer), 7: .message(headerList), 8: .bytes
        ])
    static let navigation = WireSchema(name: "NavigationStorage", fields: [1: .varint, 2: .message(navigationItem)])
    static let certificate = WireSchema(name: "CertificateStorage", fields: [1: .bytes, 2: .string, 3: .varint])
    static let certificates = WireSchema(name: "CertificatesCacheStorage", fields: [1: .message(certificate)])
    /// data.pb
    static let webState = WireSchema(
        name: "WebStateStorage",
        fields: [
            1: .bool, 2: .message(webStateMetadata), 3: userAgent, 4: .message(navigation), 5: .message(certificates)
        ])

    static let rangeIndex = WireSchema(name: "RangeIndex", fields: [1: .varint, 2: .varint])
    static let tabGroupID = WireSchema(name: "TabGroupId", fields: [1: .varint, 2: .varint])
    static let tabGroup = WireSchema(
        name: "TabGroupStorage",
        fields: [
            1: .message(rangeIndex), 2: .string, 3: .enumeration(0...8), 4: .bool, 5: .message(tabGroupID)
        ])
    static let opener = WireSchema(name: "OpenerStorage", fields: [1: .varint, 2: .varint])
    static let listItem = WireSchema(
        name: "WebStateListItemStorage",
        fields: [
            1: .varint, 2: .message(opener), 3: .message(webStateMetadata)
        ])
    /// session_metadata.pb
    static let webStateList = WireSchema(
        name: "WebStateListStorage",
        fields: [
            1: .message(listItem), 2: .varint, 3: .varint, 4: .message(tabGroup)
        ])
}

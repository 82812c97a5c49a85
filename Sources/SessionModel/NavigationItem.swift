/// One entry of a tab's back/forward list (`web.proto.NavigationItemStorage`).
public struct NavigationItem: Sendable, Hashable, Codable {
    /// The URL that was loaded.
    public var url: String
    /// The URL shown to the user when it differs from `url`; empty otherwise.
    public var virtualURL: String
    /// The page title; may be empty.
    public var title: String
    /// When the navigation was committed.
    public var timestamp: Timestamp
    /// The user agent used for this navigation.
    public var userAgent: UserAgent
    /// The referrer, if any.
    public var referrer: Referrer?
    /// Extra HTTP request headers, in order.
    public var headers: [HTTPHeader]
    /// Opaque security-scoped file bookmark data (`security_scoped_file_resource`).
    public var securityScopedFileResource: [UInt8]
    /// Fields of a newer Chrome that this version does not know, kept as raw protobuf bytes.
    public var unknownFields: [UInt8]

    public init(
        url: String = "", virtualURL: String = "", title: String = "", timestamp: Timestamp = .null,
        userAgent: UserAgent = .none, referrer: Referrer? = nil, headers: [HTTPHeader] = [],
        securityScopedFileResource: [UInt8] = [], unknownFields: [UInt8] = []
    ) {
        self.url = url
        self.virtualURL = virtualURL
        self.title = title
        self.timestamp = timestamp
        self.userAgent = userAgent
        self.referrer = referrer
        self.headers = headers
        self.securityScopedFileResource = securityScopedFileResource
        self.unknownFields = unknownFields
    }

    /// The URL Chrome shows for this item: the virtual URL, or the URL when that is empty.
    public var displayURL: String { virtualURL.isEmpty ? url : virtualURL }
}

/// A referrer of a navigation item.
public struct Referrer: Sendable, Hashable, Codable {
    public var url: String
    public var policy: ReferrerPolicy
    public init(url: String, policy: ReferrerPolicy) {
        self.url = url
        self.policy = policy
    }
}

/// One HTTP request header of a navigation item.
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A cached certificate decision of a tab (`web.proto.CertificateStorage`).
public struct CertificateRecord: Sendable, Hashable, Codable {
    /// The certificate, DER-encoded.
    public var certificate: [UInt8]
    public var host: String
    /// Certificate status bit mask.
    public var status: UInt32
    public init(certificate: [UInt8], host: String, status: UInt32) {
        self.certificate = certificate
        self.host = host
        self.status = status
    }
}

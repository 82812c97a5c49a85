/// A Chrome enum value that may lie outside the range this version knows.
///
/// Chrome crashes on load when it meets an unknown user agent or referrer policy, so the raw
/// number is kept exactly as read and the validator reports it.
public protocol ChromeEnum: Sendable, Hashable, Codable {
    /// The numeric value stored on disk.
    var rawValue: Int32 { get }
    /// The lowerCamel names of the known values, indexed by number.
    static var names: [String] { get }
    init(rawValue: Int32)
}

extension ChromeEnum {
    /// True when the value is one Chrome knows.
    public var isKnown: Bool { rawValue >= 0 && Int(rawValue) < Self.names.count }
    /// The lowerCamel name, or the number as text when the value is out of range.
    public var name: String { isKnown ? Self.names[Int(rawValue)] : String(rawValue) }
    /// Looks a value up by its lowerCamel name or its number.
    public init?(name: String) {
        if let index = Self.names.firstIndex(of: name) {
            self.init(rawValue: Int32(index))
        } else if let number = Int32(name) {
            self.init(rawValue: number)
        } else {
            return nil
        }
    }
}

/// The user agent a tab or navigation item asked for (`web.proto.UserAgentType`).
public struct UserAgent: ChromeEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let names = ["none", "automatic", "mobile", "desktop"]
    public static let none = UserAgent(rawValue: 0)
    public static let automatic = UserAgent(rawValue: 1)
    public static let mobile = UserAgent(rawValue: 2)
    public static let desktop = UserAgent(rawValue: 3)
}

/// A referrer policy (`web.proto.ReferrerPolicy`).
public struct ReferrerPolicy: ChromeEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let names = [
        "always", "default", "noReferrerWhenDowngrade", "never", "origin", "originWhenCrossOrigin",
        "sameOrigin", "strictOrigin", "strictOriginWhenCrossOrigin"
    ]
    public static let always = ReferrerPolicy(rawValue: 0)
    public static let `default` = ReferrerPolicy(rawValue: 1)
}

/// The colour of a tab group (`ios.proto.TabGroupColorId`).
public struct TabGroupColor: ChromeEnum {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let names = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"]
    public static let grey = TabGroupColor(rawValue: 0)
}

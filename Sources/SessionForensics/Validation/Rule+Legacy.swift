/// The rules of the legacy format (`Sessions/<id>/session.plist`).
extension Rule {
    public static let legacyUnparsable = Rule(
        "legacy-unparsable", .error, .sessionLost,
        "session.plist cannot be read or is not a binary property list: the window loads empty.")

    /// The rules above, in order.
    static let legacyRules: [Rule] = [legacyUnparsable]
}

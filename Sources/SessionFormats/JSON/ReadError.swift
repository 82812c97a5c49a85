/// A session of an input that could not be read, as `inspect` and the other reading commands
/// report it beside the sessions they could read.
public struct ReadError: Sendable, Hashable {
    public var session: String
    public var incognito: Bool
    /// The file, as the user can give it back to a command.
    public var file: String
    /// The first bad byte, for damage.
    public var offset: Int?
    /// What is wrong.
    public var message: String
    /// The command to run next.
    public var next: String

    /// The error of one session of `input`, read as the family named `browser`.
    public init(session: String, incognito: Bool, error: FormatError, input: String, browser: String) {
        self.session = session
        self.incognito = incognito
        switch error {
        case .damaged(let file, let offset, let reason):
            self.file = file
            self.offset = offset
            message = "damaged at byte \(offset): \(reason)"
        case .notASession(let path, let reason), .unreadable(let path, let reason), .invalidDocument(let path, let reason):
            file = path
            offset = nil
            message = reason
        }
        let word = ShellWord.quote(input)
        let family = BrowserFamilies.named(browser)?.shortName.capitalized ?? "the browser"
        let repair =
            CompressedInput.isGzip(input)
            ? "sessionctl decompress \(word) -o DIR, then sessionctl repair --dry-run DIR"
            : "sessionctl repair --dry-run on the profile"
        next = "sessionctl validate \(word) says what \(family) would do; \(repair) shows what repair would save"
    }
}

extension ReadError {
    /// The error as a JSON object (session, incognito, file, offset, message, next), with `side`
    /// first when given (diff: `a` or `b`).
    public func json(side: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = side.map { [("side", .string($0))] } ?? []
        members += [
            ("session", .string(session)), ("incognito", .bool(incognito)), ("file", .string(file)),
            ("offset", offset.map { .int(Int64($0)) } ?? .null), ("message", .string(message)), ("next", .string(next))
        ]
        return .object(members)
    }
}

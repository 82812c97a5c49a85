/// A set of name prefixes: the names a caller looks for (a sweep, the leftovers of its writer).
///
/// Passed to `FileSystemHooks.directories(below:holdingNamesStartingWith:)` so that a file system
/// that answers from what it knows answers exactly the question asked, whatever names it tracks.
@_spi(CrashTesting) public struct NamePrefixes: Hashable, Sendable, CustomStringConvertible {
    /// The prefixes, sorted and without repeats.
    public let prefixes: [String]

    public init(_ prefixes: [String]) {
        self.prefixes = Array(Set(prefixes)).sorted()
    }

    /// Whether `name` starts with one of the prefixes.
    public func matches(_ name: String) -> Bool {
        prefixes.contains { name.hasPrefix($0) }
    }

    /// The prefixes, one per line.
    public var description: String { prefixes.joined(separator: "\n") }

    /// Parses `description`.
    public init(description: String) {
        self.init(description.split(separator: "\n", omittingEmptySubsequences: true).map(String.init))
    }
}

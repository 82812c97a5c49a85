/// An entry of a directory as a listing with kinds gives it: its name and what it is (symbolic
/// links not followed; nil when it vanished between the listing and the look).
public struct DirectoryEntry: Sendable, Equatable {
    public var name: String
    public var kind: FileKind?

    public init(name: String, kind: FileKind?) {
        self.name = name
        self.kind = kind
    }
}

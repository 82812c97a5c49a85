import FileSystemKit
import SessionFormats
import SessionStore

/// The record `sessionctl repair` writes, durably, before its first change and removes after its
/// last: `<profile>/.sessionctl-intent.json`, naming the session directories it replaces.
///
/// A crash or an error can leave a replaced directory neither live nor staged (a power loss that
/// undoes the rename putting the repaired copy in place, after the original was set aside): the
/// record is how the next sessionctl command, or the store's next launch, knows that window was
/// being replaced, not set aside on purpose, and brings the original back from its set-aside
/// entry (`InterruptedCommands`). It also records the content digest (`ContentDigest`) of each
/// directory as it was before the repair, so that the entry put back is the one the repair made
/// and never an older, unrelated entry of the same session.
public struct RepairIntent: Equatable, Sendable {
    /// The record's file name, in the profile directory.
    public static let fileName = ".sessionctl-intent.json"
    public static let schema = "sessionctl.intent/1"

    /// The directories being replaced, relative to the profile.
    public var directories: [String]
    /// The content digest of each directory before the repair (`ContentDigest`), by directory;
    /// a directory without one (a record of an older sessionctl) gets nothing put back.
    public var contents: [String: String]

    public init(directories: [String], contents: [String: String] = [:]) {
        self.directories = directories
        self.contents = contents
    }

    /// The record's bytes.
    public var bytes: [UInt8] {
        let document = JSONValue.object([
            ("schema", .string(RepairIntent.schema)),
            ("operation", .string("repair")),
            ("directories", .array(directories.map { .string($0) })),
            ("contents", .object(directories.compactMap { directory in contents[directory].map { (directory, .string($0)) } }))
        ])
        return Array((document.serialized() + "\n").utf8)
    }

    /// Writes the record into `profile`, durably.
    public func write(_ writer: AtomicWriter, profile: String) throws(FileSystemError) {
        try writer.write(bytes, to: joinPath(profile, RepairIntent.fileName))
    }

    /// The record of `profile`, if there is one; a record that cannot be parsed names nothing.
    public static func read(_ writer: AtomicWriter, profile: String) -> RepairIntent? {
        let path = joinPath(profile, fileName)
        guard writer.fileSystem.kind(of: path) == .file else { return nil }
        guard let parsed = try? JSONParser.parse(writer.fileSystem.read(path), file: fileName),
            case .array(let listed)? = parsed["directories"]
        else { return RepairIntent(directories: []) }
        var contents: [String: String] = [:]
        if case .object(let members)? = parsed["contents"] {
            for (directory, value) in members { if case .string(let digest) = value { contents[directory] = digest } }
        }
        return RepairIntent(
            directories: listed.compactMap { if case .string(let directory) = $0 { return directory } else { return nil } },
            contents: contents)
    }

    /// Removes the record of `profile`, durably.
    public static func remove(_ writer: AtomicWriter, profile: String) throws(FileSystemError) {
        let path = joinPath(profile, fileName)
        guard writer.fileSystem.kind(of: path) != nil else { return }
        try writer.fileSystem.unlink(path)
        try writer.syncDirectory(profile)
    }
}

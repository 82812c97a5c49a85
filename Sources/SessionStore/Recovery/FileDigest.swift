import Archive
import FileSystemKit

/// A regular file's size and SHA-256 (lowercase hexadecimal): what a set-aside manifest lists of it.
public struct FileDigest: Equatable, Sendable {
    /// The file's size in bytes.
    public var size: Int64
    /// Its SHA-256, 64 lowercase hexadecimal digits.
    public var sha256: String

    /// A digest of these parts.
    public init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }

    /// The digest of these bytes.
    public init(of bytes: [UInt8]) {
        self.init(size: Int64(bytes.count), sha256: SHA256.hex(SHA256.hash(bytes)))
    }
}

/// A file system that gives a file's digest itself: the answer `read` then hashing would give,
/// which the crash simulator's model, holding its files' contents, remembers by content instead
/// of hashing again. Behind the `CrashTesting` SPI: any other file system is read and hashed.
@_spi(CrashTesting) public protocol FileDigesting {
    /// The digest of the regular file at `path`, refused as `read` refuses it.
    func digest(of path: String) throws(FileSystemError) -> FileDigest
}

/// Gives the digests of files on one file system: its own when it gives them, else read and hashed.
public struct FileDigester {
    private let fileSystem: any ReadableFileSystem
    private let digesting: (any FileDigesting)?

    public init(_ fileSystem: any ReadableFileSystem) {
        self.fileSystem = fileSystem
        digesting = fileSystem as? any FileDigesting
    }

    /// The digest of the regular file at `path`.
    public func digest(of path: String) throws(FileSystemError) -> FileDigest {
        if let digesting { return try digesting.digest(of: path) }
        return FileDigest(of: try fileSystem.read(path))
    }
}

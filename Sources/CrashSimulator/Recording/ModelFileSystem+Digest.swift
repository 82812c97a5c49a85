import Archive
import FileSystemKit
@_spi(CrashTesting) import SessionStore

@_spi(CrashTesting) extension ModelFileSystem: FileDigesting {
    /// The digest of a file's blob: what reading it and hashing the bytes gives.
    public func digest(of path: String) throws(FileSystemError) -> FileDigest {
        let blob = try readBlob(path, limit: maximumFileSize)
        return FileDigest(size: Int64(blob.count), sha256: SHA256.hex(SHA256.hash(blob.bytes)))
    }
}

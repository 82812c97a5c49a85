import Archive
import FileSystemKit
import SessionStore

extension ModelFileSystem: FileDigesting {
    /// The digest of a file's blob (by `sha256OfBlob` when set): what reading it and hashing the
    /// bytes gives. Traced as the read it stands for, since the blob decides the digest.
    public func digest(of path: String) throws(FileSystemError) -> FileDigest {
        let blob = try tracedRead(path, limit: maximumFileSize)
        return FileDigest(size: Int64(blob.count), sha256: sha256OfBlob?(blob) ?? SHA256.hex(SHA256.hash(blob.bytes)))
    }
}

/// Defaults for the operations only extraction needs, so that a file system may leave them out.
extension FileSystem {
    /// By default a file system has no symbolic links.
    public func symlink(_ target: String, at path: String) throws(StoreError) {
        throw .cannotCreate(path: path, reason: "symbolic links are not supported here")
    }

    /// By default modification times are not kept.
    public func setModificationTime(_ path: String, seconds: Int64) throws(StoreError) {}
}

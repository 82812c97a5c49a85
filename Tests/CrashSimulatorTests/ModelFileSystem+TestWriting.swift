@testable import CrashSimulator

extension ModelFileSystem {
    /// Creates a file that must not exist yet holding `bytes` (tests only).
    func writeNew(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) throws {
        let handle = try createExclusive(path, mode: mode)
        _ = try write(handle, bytes[...])
        try close(handle)
    }

    /// Creates a file that must not exist yet holding `text` in UTF-8 (tests only).
    func writeNew(_ path: String, _ text: String) throws {
        try writeNew(path, Array(text.utf8))
    }
}

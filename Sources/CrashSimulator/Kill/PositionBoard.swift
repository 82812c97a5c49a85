#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a kill-mode child is in its file operations, kept in a small shared memory-mapped file
/// beside its profile: the number of operations started and completed. The child updates it
/// without a system call, so a SIGKILL at any instant leaves in the file exactly where the child
/// was; the parent reads it after the child is dead.
final class PositionBoard: @unchecked Sendable {
    private let words: UnsafeMutablePointer<Int64>?

    /// The board's file for a child's profile directory: `position` beside it.
    static func path(forProfile profile: String) -> String {
        let parent = profile.lastIndex(of: "/").map { String(profile[..<$0]) } ?? "."
        return parent + "/position"
    }

    /// Maps the board at `path` for writing (the child); nil pointer when that fails, and then
    /// nothing is recorded.
    init(writingAt path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            words = nil
            return
        }
        defer { close(fd) }
        guard ftruncate(fd, 16) == 0, let memory = mmap(nil, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
            memory != MAP_FAILED
        else {
            words = nil
            return
        }
        words = memory.bindMemory(to: Int64.self, capacity: 2)
        words?[0] = 0
        words?[1] = 0
    }

    /// Records that operation number `index` (0-based) is starting.
    func starting(_ index: Int) { words?[0] = Int64(index + 1) }

    /// Records that `count` operations have completed.
    func completed(_ count: Int) { words?[1] = Int64(count) }

    /// Reads a board a dead child left: operations started and completed (nil when there is none).
    static func position(at path: String) -> (started: Int, completed: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var values: [Int64] = [0, 0]
        let count = values.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        guard count == 16 else { return nil }
        return (Int(values[0]), Int(values[1]))
    }
}

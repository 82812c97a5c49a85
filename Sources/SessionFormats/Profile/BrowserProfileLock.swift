#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a running browser marks a profile directory as its own, read so that nothing is rewritten
/// under a browser that is about to write its own session over it.
///
/// Firefox takes a POSIX record lock (`fcntl`) on `.parentlock` and, on Linux, also leaves a
/// symbolic link `lock` whose target is `<address>:+<pid>` (the `+` saying the record lock is held
/// too; an old Firefox without it wrote `<address>:<pid>`). Chromium leaves a symbolic link
/// `SingletonLock` whose target is `<hostname>-<pid>`. A link outlives a crash, so a link alone
/// says nothing: a record lock is released by the kernel when its process ends, and a pid is
/// looked up on this machine.
public enum BrowserProfileLock {
    /// Who holds a profile: a process id when it is known.
    public struct Holder: Sendable, Equatable {
        /// The lock file or link that says so, as found.
        public var path: String
        /// The process holding it, when the lock names or reports one.
        public var pid: Int32?
    }

    /// Whether another process holds a record lock on `path` (Firefox's `.parentlock`): nil when
    /// the file is not there or nobody holds it.
    public static func recordLockHolder(_ path: String) -> Holder? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 0
        probe.l_len = 0
        guard fcntl(descriptor, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return nil }
        return Holder(path: path, pid: probe.l_pid > 0 ? probe.l_pid : nil)
    }

    /// The target of the symbolic link at `path`, or nil when it is no link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether process `pid` exists on this machine (a process of another user counts).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// This machine's host name, as Chromium writes it into `SingletonLock`.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Firefox's hold on the profile directory `profile`: the record lock on `.parentlock`, or an
    /// old-format `lock` link (without `+`) naming a live process; nil when Firefox is not running
    /// with it (a `+` link left by a crash is stale once nobody holds the record lock).
    public static func firefoxHolder(profile: String) -> Holder? {
        let root = profile.isEmpty ? "." : profile
        if let held = recordLockHolder(root + "/.parentlock") { return held }
        let link = root + "/lock"
        guard let target = linkTarget(link), let colon = target.lastIndex(of: ":") else { return nil }
        let tail = target[target.index(after: colon)...]
        guard !tail.hasPrefix("+"), let pid = Int32(tail), isAlive(pid) else { return nil }
        return Holder(path: link, pid: pid)
    }

    /// Chromium's hold on the user-data directory `directory`: a `SingletonLock` link naming this
    /// host and a live process; nil otherwise (a link from another machine or a crash is stale).
    public static func chromiumHolder(userData directory: String) -> Holder? {
        let link = directory.isEmpty ? "SingletonLock" : directory + "/SingletonLock"
        guard let target = linkTarget(link), let dash = target.lastIndex(of: "-"),
            let pid = Int32(target[target.index(after: dash)...])
        else { return nil }
        guard String(target[..<dash]) == hostName(), isAlive(pid) else { return nil }
        return Holder(path: link, pid: pid)
    }
}

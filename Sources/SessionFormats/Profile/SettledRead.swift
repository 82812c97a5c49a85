import FileSystemKit

/// Reads a profile on disk so that what a sessionctl command changes in it (a repair swapping a
/// window in, a restore, a migration) is seen before or after the change, never half-done.
///
/// Every command that changes a profile holds its exclusive lock (`lockDirectory`) from before
/// its first change to after its last. A read takes a stamp of the directories that say which
/// sessions the profile has (each family's `watchedDirectories`: inode and times, so that a
/// rename in or out shows), waits while the lock is held, reads, and is taken only when the lock
/// is free and the stamp unchanged after it; otherwise, an error of the read included, it reads
/// again. Past `patience` seconds in all (reads counted), it ends with `FileSystemError.locked`
/// (status 75): a writer is said to be at work rather than an empty or half-changed profile shown.
///
/// The profile is recognised by every family (`isProfileDirectory`); where one profile holds
/// another (Firefox for iOS's container and its `profile.profile/`), a writer may lock either,
/// and the read waits on both.
public struct SettledRead: Sendable {
    /// The profile directory the read belongs to.
    public let profile: String
    /// How long a read may take in all, waits and re-reads included, before it gives up.
    public var patience: Double
    private let fileSystem = POSIXFileSystem()

    /// Every directory whose lock a writer of the profile may hold: the profile, and a profile
    /// directly above it or inside it, if any.
    private let locked: [String]

    public init(profile: String, patience: Double = 10) {
        self.profile = profile
        self.patience = patience
        let fileSystem = POSIXFileSystem()
        let above = parentPath(profile)
        var locked = [profile]
        if above != profile, SettledRead.isProfile(above, fileSystem) { locked.append(above) }
        // A profile inside this one is in a place some family watches (`profile.profile/`).
        let inner = Set(BrowserFamilies.all.flatMap(\.watchedDirectories).compactMap { pathComponents($0).first })
        for child in inner.sorted() {
            let path = joinPath(profile, child)
            if fileSystem.resolvedKind(of: path) == .directory, SettledRead.isProfile(path, fileSystem) { locked.append(path) }
        }
        self.locked = locked
    }

    /// Whether `directory` is a profile of any family.
    static func isProfile(_ directory: String, _ fileSystem: POSIXFileSystem) -> Bool {
        let tree = ReadableTree(fileSystem: fileSystem, root: directory)
        return BrowserFamilies.all.contains { $0.isProfileDirectory(tree) }
    }

    /// The settled read of what `path` (as given on the command line) belongs to: the nearest
    /// directory at or above it (or the one profile one level down, as for an unpacked bundle)
    /// that holds a profile's directories. Nil when none does (a bundle, a loose file): there is
    /// no writer to wait for then. A path that does not exist (a window swapped out) is placed by
    /// its nearest existing ancestor.
    public static func of(_ path: String) -> SettledRead? {
        let fileSystem = POSIXFileSystem()
        var directory = InputOpener.absolutePath(path)
        while fileSystem.resolvedKind(of: directory) != .directory, directory != "/" { directory = parentPath(directory) }
        func isProfile(_ candidate: String) -> Bool { SettledRead.isProfile(candidate, fileSystem) }
        if fileSystem.resolvedKind(of: InputOpener.absolutePath(path)) == .directory {
            let inside = ((try? fileSystem.list(directory)) ?? []).map { joinPath(directory, $0) }.filter { child in
                fileSystem.resolvedKind(of: child) == .directory && isProfile(child)
            }
            if !isProfile(directory), inside.count == 1, let child = inside.first { return SettledRead(profile: child) }
        }
        while true {
            if isProfile(directory) { return SettledRead(profile: directory) }
            guard directory != "/" else { return nil }
            directory = parentPath(directory)
        }
    }

    /// Runs `body`, which reads what `path` names, as a settled read when `path` belongs to a
    /// profile on disk (`of`), else as it is.
    public static func reading<T>(_ path: String, _ body: () throws -> T) throws -> T {
        guard let settled = of(path) else { return try body() }
        return try settled.run(body)
    }

    /// The directories whose entries say which sessions the profile has: those of each family
    /// whose profile each locked directory is (every family's when none says).
    private var watched: [String] {
        var seen = Set<String>()
        return locked.flatMap { base -> [String] in
            let tree = ReadableTree(fileSystem: fileSystem, root: base)
            let families = BrowserFamilies.all.filter { $0.isProfileDirectory(tree) }
            let relative = (families.isEmpty ? BrowserFamilies.all : families).flatMap(\.watchedDirectories)
            return relative.map { joinPath(base, $0) }
        }.filter { seen.insert($0).inserted }
    }

    /// Runs `body` until it ran while no writer held the profile and nothing it watches changed.
    public func run<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(patience * 1000)))
        let watched = self.watched
        while true {
            let before = fileSystem.directoryStamp(watched)
            if locked.contains(where: fileSystem.isLockedExclusively) {
                try pause(until: deadline, clock)
                continue
            }
            let result = Result { try body() }
            if !locked.contains(where: fileSystem.isLockedExclusively) && fileSystem.directoryStamp(watched) == before {
                return try result.get()
            }
            try pause(until: deadline, clock)
        }
    }

    /// Waits a moment before the next look, or gives up past the deadline.
    private func pause(until deadline: ContinuousClock.Instant, _ clock: ContinuousClock) throws(FileSystemError) {
        guard clock.now < deadline else { throw FileSystemError.locked(path: profile) }
        SystemCall.pause(microseconds: 20_000)
    }
}

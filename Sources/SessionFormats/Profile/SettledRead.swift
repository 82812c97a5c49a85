import FileSystemKit

/// Reads a profile on disk so that what a sessionctl command changes in it (a repair swapping a
/// window in, a restore, a migration) is seen before or after the change, never half-done.
///
/// Every command that changes a profile holds its exclusive lock (`lockDirectory`) from before
/// its first change to after its last. A read takes a stamp of the directories that say which
/// windows the profile has (`[OTR/]SessionStorage`, `[OTR/]Sessions`, `OTR`: inode and times, so
/// that a rename in or out shows), waits while the lock is held, reads, and is taken only when
/// the lock is free and the stamp unchanged after it; otherwise, an error of the read included,
/// it reads again. Past `patience` seconds in all (reads counted), it ends with
/// `FileSystemError.locked` (status 75): a writer is said to be at work rather than an empty or
/// half-changed profile shown.
public struct SettledRead: Sendable {
    /// The profile directory the read belongs to.
    public let profile: String
    /// How long a read may take in all, waits and re-reads included, before it gives up.
    public var patience: Double
    private let fileSystem = POSIXFileSystem()

    public init(profile: String, patience: Double = 10) {
        self.profile = profile
        self.patience = patience
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
        func isProfile(_ candidate: String) -> Bool {
            InputLocator.isProfile(Set((try? fileSystem.list(candidate)) ?? []))
                && lastPathComponent(candidate) != ProfileLayout.incognitoDirectory
        }
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

    /// The directories whose entries say which windows the profile has.
    private var watched: [String] {
        let incognito = joinPath(profile, ProfileLayout.incognitoDirectory)
        return [incognito]
            + [profile, incognito].flatMap { base in
                [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].map { joinPath(base, $0) }
            }
    }

    /// Runs `body` until it ran while no writer held the profile and nothing it watches changed.
    public func run<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(patience * 1000)))
        while true {
            let before = fileSystem.directoryStamp(watched)
            if fileSystem.isLockedExclusively(profile) {
                try pause(until: deadline, clock)
                continue
            }
            let result = Result { try body() }
            if !fileSystem.isLockedExclusively(profile) && fileSystem.directoryStamp(watched) == before {
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

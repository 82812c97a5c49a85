import Foundation

/// The slots of the file-mapping guard (`CFileMapping`, 64 of them) as the tests share them: a
/// test that takes every slot holds them exclusively, and a test that needs its file mapped
/// holds them shared, so that it never meets a moment when none is free (and never polls).
public enum MappingSlots {
    nonisolated(unsafe) private static var lock: pthread_rwlock_t = {
        var lock = pthread_rwlock_t()
        pthread_rwlock_init(&lock, nil)
        return lock
    }()

    /// Runs `body` while no test takes every slot.
    public static func shared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return try body()
    }

    /// Runs `body`, which may take every slot, while no other test needs one.
    public static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return try body()
    }
}

import FileSystemKit
import Foundation
import TestSupport
import Testing

/// A file read as `FileBytes`: a large one mapped, a small one read, both what `read` gives; what
/// `read` refuses refused alike; a mapped file cut shorter while it is mapped reads as zeros past
/// the cut and says so, instead of ending the process.
@Suite(.serialized) struct FileBytesTests {
    let fileSystem = POSIXFileSystem()

    /// Bytes that differ from place to place, and from zero (what a cut page reads as).
    private func content(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
    }

    @Test func aSmallFileIsReadAndALargeOneMappedEachAsReadGivesIt() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let small = joinPath(root, "small")
        let large = joinPath(root, "large")
        try fileSystem.writeNew(small, content(5000))
        try fileSystem.writeNew(large, content(Int(POSIXFileSystem.mappingThreshold) + 12345))
        let smallBytes = try fileSystem.readBytes(small, limit: maximumFileSize)
        let largeBytes = try mapped(large)
        #expect(!smallBytes.isMapped && largeBytes.isMapped)
        #expect(smallBytes.array == (try fileSystem.read(small)))
        #expect(largeBytes.array == (try fileSystem.read(large)))
        #expect(largeBytes.uint32(at: 4) == UInt32(5) | UInt32(6) << 8 | UInt32(7) << 16 | UInt32(8) << 24)
        #expect(largeBytes[largeBytes.count - 1] == content(largeBytes.count)[largeBytes.count - 1])
        #expect(!largeBytes.wasCut)
        #expect(largeBytes == FileBytes(try fileSystem.read(large)))
    }

    @Test func whatReadRefusesReadBytesRefusesAlike() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = joinPath(root, "a")
        try fileSystem.writeNew(file, content(5000))
        #expect(throws: FileSystemError.tooLarge(path: file, size: 5000, limit: 4999)) { try fileSystem.readBytes(file, limit: 4999) }
        #expect(throws: FileSystemError.notRegularFile(path: root)) { try fileSystem.readBytes(root, limit: maximumFileSize) }
        #expect(throws: FileSystemError.self) { try fileSystem.readBytes(joinPath(root, "none"), limit: maximumFileSize) }
        let empty = joinPath(root, "empty")
        try fileSystem.writeNew(empty, [])
        #expect(try fileSystem.readBytes(empty, limit: maximumFileSize).count == 0)
    }

    @Test func aFileCutShorterWhileMappedReadsZerosPastTheCutAndSaysSo() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = joinPath(root, "cut")
        let size = 3 << 20
        try fileSystem.writeNew(file, content(size))
        let bytes = try mapped(file)
        #expect(bytes.isMapped)
        #expect(truncate(file, 1 << 20) == 0)
        // Before the cut: the file's bytes. Past it: zeros, where the process would get SIGBUS.
        #expect(bytes[(1 << 20) - 1] == content(size)[(1 << 20) - 1])
        #expect(bytes[2 << 20] == 0 && bytes.uint64(at: size - 8) == 0)
        #expect(bytes.wasCut)
        // Another mapping of the same size is not marked.
        let other = joinPath(root, "other")
        try fileSystem.writeNew(other, content(size))
        let otherBytes = try mapped(other)
        #expect(otherBytes[size - 1] != 0 && !otherBytes.wasCut)
    }

    @Test func manyMappingsAtOnceAndInTurn() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = joinPath(root, "f")
        try fileSystem.writeNew(file, content(Int(POSIXFileSystem.mappingThreshold)))
        // More than the guard has slots: those past them are read instead, all the same bytes
        // (held only until the first is read, so that other tests' mappings wait the least).
        // Every slot taken while no other test maps a file (MappingSlots).
        try MappingSlots.exclusive {
            var held: [FileBytes] = []
            while held.count < 100, held.last?.isMapped != false { held.append(try fileSystem.readBytes(file, limit: maximumFileSize)) }
            #expect(held.contains { $0.isMapped } && held.contains { !$0.isMapped })
            #expect(Set(held.map { $0.uint32(at: 100) }).count == 1)
        }
        // Unmapped when the last copy goes, the slots serve again.
        for _ in 0..<200 { #expect(try fileSystem.readBytes(file, limit: maximumFileSize).count == Int(POSIXFileSystem.mappingThreshold)) }
    }

    /// `path` read while no test holds every slot of the guard: mapped when it is large enough.
    private func mapped(_ path: String) throws -> FileBytes {
        try MappingSlots.shared { try fileSystem.readBytes(path, limit: maximumFileSize) }
    }

    @Test func bytesOfTheirOwnAndTheirParts() {
        let bytes: FileBytes = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        #expect(bytes.count == 9 && !bytes.isMapped && !bytes.wasCut)
        #expect(bytes[2..<5] == [3, 4, 5])
        #expect(bytes.uint64(at: 1) == 0x0908_0706_0504_0302)
        #expect(bytes.withUnsafeBytes(7..<9) { Array($0) } == [8, 9])
        #expect(FileBytes([UInt8]()).count == 0)
        bytes.prefetch(1_000_000)
    }
}

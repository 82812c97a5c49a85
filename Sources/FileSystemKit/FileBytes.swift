import CFileMapping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's bytes in memory, read-only: mapped from the file (`ReadableFileSystem.readBytes` on
/// the real disk, for a large file) or held in memory of their own.
///
/// A mapped file costs nothing until its pages are read, and its pages are the page cache's:
/// reading a large session file into new memory costs more than parsing it (the kernel zeroes
/// the new memory and copies into it). If the file is cut shorter while it is mapped, the pages
/// past its new end read as zeros instead of ending the process, and `wasCut` says so: a reader
/// checks it when it is done and treats the bytes as unreadable. A reference: copies share the
/// memory, which is unmapped or freed when the last one goes.
public final class FileBytes: @unchecked Sendable {
    /// Where the bytes start.
    @usableFromInline let base: UnsafeRawPointer
    /// How many bytes there are.
    public let count: Int
    /// Whether the bytes are a mapping of their file.
    public let isMapped: Bool

    private init(base: UnsafeRawPointer, count: Int, mapped: Bool) {
        self.base = base
        self.count = count
        self.isMapped = mapped
    }

    /// A copy of `bytes`.
    public convenience init(_ bytes: some Collection<UInt8>) {
        let count = bytes.count
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        UnsafeMutableRawBufferPointer(start: memory, count: count).copyBytes(from: bytes)
        self.init(base: UnsafeRawPointer(memory), count: count, mapped: false)
    }

    /// The first `count` bytes of the file open on `fd`, mapped; nil when it cannot be mapped.
    static func mapping(_ fd: Int32, count: Int) -> FileBytes? {
        guard count > 0, let base = cfilemapping_map(fd, count) else { return nil }
        return FileBytes(base: base, count: count, mapped: true)
    }

    deinit {
        if isMapped {
            cfilemapping_unmap(base, count)
        } else {
            base.deallocate()
        }
    }

    /// Whether the file was cut shorter while it was mapped and a read met a page past its new
    /// end (which read as zeros): the bytes are not what the file held.
    public var wasCut: Bool { isMapped && cfilemapping_was_cut(base) != 0 }

    /// Where the bytes start, for a reader that reads many fields of them without counting a
    /// reference at each: valid only while these bytes are held.
    public var unsafeBaseAddress: UnsafeRawPointer { base }

    /// The byte at `index`.
    @inlinable
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "index out of range")
        return base.load(fromByteOffset: index, as: UInt8.self)
    }

    /// The little-endian `UInt32` at `offset` (which must leave 4 bytes).
    @inlinable
    public func uint32(at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= count - 4, "offset out of range")
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian `UInt64` at `offset` (which must leave 8 bytes).
    @inlinable
    public func uint64(at offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset <= count - 8, "offset out of range")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Asks for the bytes at `offset` to be brought into the cache ahead of their use (a hint:
    /// nothing is read, nothing faults, an offset past the end is ignored).
    @inlinable
    public func prefetch(_ offset: Int) {
        guard offset >= 0, offset < count else { return }
        cfilemapping_prefetch(base + offset)
    }

    /// The bytes of `range` as an array of their own.
    public subscript(range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        return [UInt8](UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Every byte, as an array of their own.
    public var array: [UInt8] { self[0..<count] }

    /// Calls `body` with the bytes of `range`, valid only during the call.
    public func withUnsafeBytes<Result>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        return try withExtendedLifetime(self) {
            try body(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
        }
    }
}

extension FileBytes: Equatable {
    /// Bytes are equal when they hold the same bytes, wherever they are.
    public static func == (a: FileBytes, b: FileBytes) -> Bool {
        guard a.count == b.count else { return false }
        if a === b { return true }
        return a.withUnsafeBytes(0..<a.count) { x in b.withUnsafeBytes(0..<b.count) { y in x.elementsEqual(y) } }
    }
}

extension FileBytes: ExpressibleByArrayLiteral {
    /// Bytes of their own holding `elements`.
    public convenience init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }
}

/// Materialises the partial effect of a torn operation on a tree.
enum TornWrite {
    /// The byte ranges (relative to the write's start) of the pieces a write is split into.
    static func pieceRanges(length: Int, offset: Int, pieces: Int, aligned: Bool) -> [Range<Int>] {
        guard length > 0 else { return [] }
        if aligned {
            var ranges: [Range<Int>] = []
            var start = 0
            while start < length {
                let absolute = offset + start
                let end = min(length, start + Tear.blockSize - absolute % Tear.blockSize)
                ranges.append(start..<end)
                start = end
            }
            return ranges
        }
        let count = max(1, min(pieces, length))
        return (0..<count).map { index in (length * index / count)..<(length * (index + 1) / count) }
    }

    /// Number of aligned blocks a write touches.
    static func blockCount(length: Int, offset: Int) -> Int {
        guard length > 0 else { return 0 }
        return (offset + length - 1) / Tear.blockSize - offset / Tear.blockSize + 1
    }

    /// Applies `tear` of operation `index` (whose effect is `effect`) to `tree`.
    static func apply(_ tear: Tear, effect: Effect, index: Int, seed: UInt64, to tree: ModelTree) {
        if case .renameSteps(_, let steps) = tear {
            tree.applyRenameSteps(effect, steps: steps)
            return
        }
        guard case .write(let inode, let offset, let bytes, _, _) = effect else {
            tree.apply(effect, index: Int32(index))
            return
        }
        tree.ensureNode(inode, directory: false)
        guard let old = tree.node(inode)?.blob else { return }
        let garbageSeed = ContentHash.combine(seed, UInt64(index))
        var content: [UInt8]
        switch tear {
        case .cut(_, let count):
            content = old.writing(bytes[0..<min(max(count, 0), bytes.count)], at: offset).bytes
        case .pieces(_, let pieces, let aligned, let kept, let garbage, let grown):
            let ranges = pieceRanges(length: bytes.count, offset: offset, pieces: pieces, aligned: aligned)
            var end = old.count
            if grown {
                end = max(end, offset + bytes.count)
            } else if let last = ranges.indices.last(where: { kept & (UInt64(1) << UInt64($0)) != 0 }) {
                end = max(end, offset + ranges[last].upperBound)
            }
            content = old.bytes
            if content.count < end { content.append(contentsOf: repeatElement(0, count: end - content.count)) }
            for (number, range) in ranges.enumerated() {
                let start = offset + range.lowerBound
                guard start < end else { break }
                let stop = min(offset + range.upperBound, end)
                if kept & (UInt64(1) << UInt64(number)) != 0 {
                    content.replaceSubrange(start..<stop, with: bytes[range.lowerBound..<(range.lowerBound + stop - start)])
                } else if garbage {
                    let noise = SeededGenerator.garbage(count: stop - start, seed: ContentHash.combine(garbageSeed, UInt64(number)))
                    content.replaceSubrange(start..<stop, with: noise)
                }
            }
        case .sector(_, let sector, let length):
            content = old.writing(bytes[...], at: offset).bytes
            let sectorStart = (offset / Tear.sectorSize + sector) * Tear.sectorSize
            let stop = min(sectorStart + Tear.sectorSize, offset + bytes.count)
            let start = max(stop - length, max(sectorStart, offset))
            if start < stop {
                let noise = SeededGenerator.garbage(count: stop - start, seed: ContentHash.combine(garbageSeed, UInt64(sector) | 1 << 32))
                content.replaceSubrange(start..<stop, with: noise)
            }
        case .renameSteps:
            return
        }
        tree.applyVariant(inode: inode, content: Blob(content), index: Int32(index))
    }
}

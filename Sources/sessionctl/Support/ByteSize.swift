import ArgumentParser

/// A size given on the command line: bytes, or a number with K, M, G or T (powers of 1024, an
/// optional `iB` or `B` after the letter), e.g. `512M`, `2GiB`, `1048576`.
struct ByteSize: ExpressibleByArgument, Equatable {
    var bytes: Int64

    init(bytes: Int64) { self.bytes = bytes }

    init?(argument: String) {
        var text = Substring(argument.uppercased())
        if text.hasSuffix("IB") { text = text.dropLast(2) } else if text.hasSuffix("B") { text = text.dropLast() }
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var shift: Int64 = 0
        if let last = text.last, let value = shifts[last] {
            shift = value
            text = text.dropLast()
        }
        guard let number = Int64(text), number > 0, number <= Int64.max >> shift else { return nil }
        bytes = number << shift
    }

    var defaultValueDescription: String { "\(bytes)" }
}

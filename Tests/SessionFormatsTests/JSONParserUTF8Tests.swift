import TestSupport
import Testing

@testable import SessionFormats

/// The parser's own UTF-8 check, which it takes instead of the standard library's validation for
/// speed, answers as `String(validating:as:)` does on every byte run.
@Suite struct JSONParserUTF8Tests {
    init() { Browsers.install() }

    @Test func itAgreesWithTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        // Every lead byte with every second byte, then random runs weighted towards the hard cases.
        var runs: [[UInt8]] = []
        for lead in 0...255 {
            for second in stride(from: 0, through: 255, by: 1) { runs.append([UInt8(lead), UInt8(second), 0x80, 0xBF]) }
        }
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF
        ]
        for _ in 0..<50_000 {
            let length = Int.random(in: 1...8, using: &generator)
            runs.append((0..<length).map { _ in interesting.randomElement(using: &generator) ?? 0 })
        }
        for run in runs {
            let ours = run.withUnsafeBufferPointer { JSONParser.isValidUTF8($0) }
            for end in [run.count, run.count - 1, 2, 1] where end >= 0 && end <= run.count {
                let prefix = Array(run[..<end])
                let mine = prefix.withUnsafeBufferPointer { JSONParser.isValidUTF8($0) }
                #expect(mine == (String(validating: prefix, as: UTF8.self) != nil), "\(prefix)")
            }
            #expect(ours == (String(validating: run, as: UTF8.self) != nil), "\(run)")
        }
    }
}

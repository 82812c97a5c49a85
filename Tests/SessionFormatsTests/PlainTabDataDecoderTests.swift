import Foundation
import SessionModel
import TestSupport
import Testing

@_spi(Fuzzing) @testable import SessionFormats

/// The plain data.pb decoder must agree with swift-protobuf on every input it accepts, and must
/// accept what Chrome writes (else it would be pointless).
@Suite struct PlainTabDataDecoderTests {
    init() { Browsers.install() }

    /// What a decoder made of some bytes: a value, or an error's text.
    enum Outcome<Value: Equatable>: Equatable {
        case success(Value)
        case failure(String)
    }

    /// The plain decoder's, the reference's (swift-protobuf) and the codec's answers.
    /// Expects one input's decodings to agree: a value the plain decoder gives is the reference's,
    /// and the full path (plain first) gives the reference's result. True when the plain decoder answered.
    @discardableResult
    static func expectAgreement<Value>(
        _ outcomes: (plain: Value?, reference: Outcome<Value>, full: Outcome<Value>),
        _ label: @autoclosure () -> String
    ) -> Bool {
        if let plain = outcomes.plain { #expect(outcomes.reference == .success(plain), "\(label())") }
        #expect(outcomes.full == outcomes.reference, "\(label())")
        return outcomes.plain != nil
    }

    static func outcomes(_ bytes: [UInt8]) -> (plain: TabHistory?, reference: Outcome<TabHistory>, full: Outcome<TabHistory>) {
        let reference: Outcome<TabHistory>
        do { reference = .success(try ChromeProtoCodec.decodeTabDataMessage(bytes)) } catch { reference = .failure(error.description) }
        let full: Outcome<TabHistory>
        do { full = .success(try ChromeProtoCodec.decodeTabData(bytes)) } catch { full = .failure(error.description) }
        return (PlainTabDataDecoder.decode(bytes), reference, full)
    }

    static func randomText(_ generator: inout SplitMix64) -> String {
        let pieces = ["", "a", "https://example.org/p?q=1", "例え", "ü", "—", "😀", "\u{0}", "%41+b", "internal://local/errorpage?url=x"]
        return (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
    }

    static func randomHistory(_ generator: inout SplitMix64, certificates: Bool) -> TabHistory {
        let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
            NavigationItem(
                url: randomText(&generator), virtualURL: randomText(&generator), title: randomText(&generator),
                timestamp: Timestamp(
                    microseconds: Int64.random(in: -2...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator)),
                userAgent: UserAgent(rawValue: Int32.random(in: -2...5, using: &generator)),
                referrer: Bool.random(using: &generator)
                    ? Referrer(url: randomText(&generator), policy: ReferrerPolicy(rawValue: Int32.random(in: -1...10, using: &generator)))
                    : nil,
                headers: Bool.random(using: &generator) ? [HTTPHeader(name: randomText(&generator), value: randomText(&generator))] : [],
                securityScopedFileResource: Bool.random(using: &generator) ? [1, 2, 0xff] : []
            )
        }
        return TabHistory(
            hasOpener: Bool.random(using: &generator), userAgent: UserAgent(rawValue: Int32.random(in: -1...4, using: &generator)),
            lastCommittedIndex: Int32.random(in: -2...7, using: &generator), items: items,
            certificates: certificates ? [CertificateRecord(certificate: [0x30], host: "h", status: 1)] : []
        )
    }

    @Test func acceptsWhatChromeWritesAndAgrees() {
        var generator = SplitMix64(seed: 12)
        for _ in 0..<500 {
            let history = Self.randomHistory(&generator, certificates: false)
            let bytes = ChromeProtoCodec.encodeTabData(history)
            let (plain, reference, full) = Self.outcomes(bytes)
            #expect(plain != nil)
            #expect(plain.map(Outcome.success) == reference)
            #expect(full == reference)
        }
    }

    @Test func leavesCertificatesUnknownFieldsAndMetadataToTheReference() throws {
        var generator = SplitMix64(seed: 5)
        let history = Self.randomHistory(&generator, certificates: true)
        #expect(PlainTabDataDecoder.decode(ChromeProtoCodec.encodeTabData(history)) == nil)
        var unknown = ChromeProtoCodec.encodeTabData(TabHistory(items: [NavigationItem(url: "https://a.example/")]))
        unknown += [0xa0, 0x06, 0x01]  // field 100, varint 1
        #expect(PlainTabDataDecoder.decode(unknown) == nil)
        let decoded = try ChromeProtoCodec.decodeTabData(unknown)
        #expect(decoded.unknownFields == [0xa0, 0x06, 0x01])
        #expect(PlainTabDataDecoder.decode([0x12, 0x00]) == nil)  // field 2, the metadata
    }

    /// Damaged, duplicated, reordered and re-typed variants of Chrome's bytes: whatever the plain
    /// decoder accepts must decode the same through swift-protobuf, and errors stay the reference's.
    @Test func mutatedBytesAgree() {
        var generator = SplitMix64(seed: 99)
        var accepted = 0
        for round in 0..<3000 {
            var bytes = ChromeProtoCodec.encodeTabData(Self.randomHistory(&generator, certificates: round % 50 == 0))
            Self.mutate(&bytes, &generator)
            if Self.expectAgreement(Self.outcomes(bytes), "bytes \(bytes)") { accepted += 1 }
        }
        // Some mutations keep the plain shape (a changed character, a shorter string): they were compared.
        #expect(accepted > 100)
    }

    /// Changes one to three bytes or runs: a byte replaced or flipped, cut, inserted, removed, or a tail repeated.
    static func mutate(_ bytes: inout [UInt8], _ generator: inout SplitMix64) {
        for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            case 2: bytes.removeSubrange(at...)
            case 3: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: at)
            case 4: bytes += bytes[at...]
            default: bytes.remove(at: at)
            }
        }
    }

    @Test func fixturesAndCorpusAgree() throws {
        let files = Corpus.files(endingIn: "data.pb")
        for (relative, bytes) in files {
            Self.expectAgreement(Self.outcomes(bytes), relative)
        }
        #expect(files.count > 20)
    }
}

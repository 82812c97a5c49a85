import Foundation
import SessionModel
import TestSupport
import Testing

@_spi(Fuzzing) @testable import SessionFormats

/// The plain session_metadata.pb decoder must agree with swift-protobuf on every input it
/// accepts, and must accept what Chrome writes.
@Suite struct PlainSessionMetadataDecoderTests {
    init() { Browsers.install() }

    typealias Outcome = PlainTabDataDecoderTests.Outcome<Session>

    static func outcomes(_ bytes: [UInt8]) -> (plain: Session?, reference: Outcome, full: Outcome) {
        let reference: Outcome
        do { reference = .success(try ChromeProtoCodec.decodeSessionMetadataMessage(bytes, id: "S", incognito: true)) } catch {
            reference = .failure(error.description)
        }
        let full: Outcome
        do { full = .success(try ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: true)) } catch {
            full = .failure(error.description)
        }
        return (PlainSessionMetadataDecoder.decode(bytes, id: "S", incognito: true), reference, full)
    }

    static func randomSession(_ generator: inout SplitMix64) -> Session {
        let tabs = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
            Tab(
                id: Int32.random(in: -2...40, using: &generator), title: PlainTabDataDecoderTests.randomText(&generator),
                url: PlainTabDataDecoderTests.randomText(&generator),
                creationTime: Timestamp(
                    microseconds: Int64.random(in: -1...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator)),
                lastActiveTime: Bool.random(using: &generator) ? .null : Timestamp(microseconds: 13_400_000_000_000_000),
                navigationItemCount: Int32.random(in: -1...80, using: &generator),
                opener: Bool.random(using: &generator)
                    ? Opener(
                        index: Int32.random(in: -1...5, using: &generator), navigationIndex: Int32.random(in: 0...3, using: &generator))
                    : nil)
        }
        let groups = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            TabGroup(
                start: Int32.random(in: -1...5, using: &generator), count: Int32.random(in: -1...5, using: &generator),
                title: PlainTabDataDecoderTests.randomText(&generator),
                color: TabGroupColor(rawValue: Int32.random(in: -1...10, using: &generator)),
                collapsed: Bool.random(using: &generator),
                id: Bool.random(using: &generator)
                    ? TabGroupID(
                        high: UInt64.random(in: 0...UInt64.max, using: &generator), low: UInt64.random(in: 0...3, using: &generator)) : nil)
        }
        var session = Session(
            id: "S", incognito: true, activeIndex: Int32.random(in: -2...6, using: &generator),
            pinnedCount: Int32.random(in: -1...6, using: &generator), tabs: tabs, groups: groups)
        for index in session.tabs.indices { session.tabs[index].pinned = index < Int(session.pinnedCount) }
        return session
    }

    @Test func acceptsWhatChromeWritesAndAgrees() {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let bytes = ChromeProtoCodec.encodeSessionMetadata(Self.randomSession(&generator))
            let (plain, reference, full) = Self.outcomes(bytes)
            #expect(plain != nil)
            #expect(plain.map(Outcome.success) == reference)
            #expect(full == reference)
        }
    }

    @Test func leavesUnknownFieldsToTheReference() throws {
        var bytes = ChromeProtoCodec.encodeSessionMetadata(Session(id: "S", tabs: [Tab(id: 1, navigationItemCount: 1)]))
        bytes += [0xa0, 0x06, 0x01]
        #expect(PlainSessionMetadataDecoder.decode(bytes, id: "S", incognito: false) == nil)
        #expect(try ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false).unknownFields == [0xa0, 0x06, 0x01])
    }

    @Test func mutatedBytesAgree() {
        var generator = SplitMix64(seed: 17)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = ChromeProtoCodec.encodeSessionMetadata(Self.randomSession(&generator))
            PlainTabDataDecoderTests.mutate(&bytes, &generator)
            if PlainTabDataDecoderTests.expectAgreement(Self.outcomes(bytes), "bytes \(bytes)") { accepted += 1 }
        }
        #expect(accepted > 100)
    }

    @Test func fixturesAndCorpusAgree() {
        let files = Corpus.files(endingIn: "session_metadata.pb")
        for (relative, bytes) in files {
            PlainTabDataDecoderTests.expectAgreement(Self.outcomes(bytes), relative)
        }
        #expect(files.count > 20)
    }
}

import SessionFormats
import SessionModel
import TestSupport
import Testing

@Suite struct ChromeProtoCodecTests {
    init() { Browsers.install() }

    static func sampleSession() -> Session {
        let items = (0..<75).map { index in
            NavigationItem(
                url: "https://例え.jp/\(index)?q=ü", title: "Seite \(index) — ✓",
                timestamp: Timestamp(microseconds: 13_407_216_000_000_000 + Int64(index)),
                userAgent: .mobile, referrer: index == 0 ? nil : Referrer(url: "https://例え.jp/\(index - 1)", policy: .default),
                headers: index == 3 ? [HTTPHeader(name: "X-A", value: "b")] : [])
        }
        let history = TabHistory(
            hasOpener: true, userAgent: .desktop, lastCommittedIndex: 74, items: items,
            certificates: [CertificateRecord(certificate: [0x30, 0x82, 0x01], host: "例え.jp", status: 5)])
        return Session(
            id: "S", activeIndex: -1, pinnedCount: 1,
            tabs: [
                Tab(
                    id: Int32.max, title: "Seite 74 — ✓", url: "https://例え.jp/74", creationTime: .null, lastActiveTime: .null,
                    navigationItemCount: 75, opener: nil, pinned: true, history: history),
                Tab(
                    id: 1, title: "", url: "", creationTime: Timestamp(microseconds: 1), lastActiveTime: .null,
                    navigationItemCount: 1, opener: Opener(index: 0, navigationIndex: 0))
            ],
            groups: [
                TabGroup(start: 1, count: 1, title: "G", color: .init(rawValue: 8), collapsed: true, id: TabGroupID(high: .max, low: 1))
            ]
        )
    }

    @Test func metadataRoundTrips() throws {
        let session = Self.sampleSession()
        let bytes = ChromeProtoCodec.encodeSessionMetadata(session)
        var decoded = try ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false)
        var expected = session
        for index in expected.tabs.indices { expected.tabs[index].history = nil }
        decoded.format = expected.format
        #expect(decoded == expected)
        #expect(ChromeProtoCodec.encodeSessionMetadata(decoded) == bytes)
    }

    @Test func tabDataRoundTrips() throws {
        let history = try #require(Self.sampleSession().tabs[0].history)
        let bytes = ChromeProtoCodec.encodeTabData(history)
        #expect(try ChromeProtoCodec.decodeTabData(bytes) == history)
    }

    @Test func negativeActiveIndexIsATenByteVarint() {
        let bytes = ChromeProtoCodec.encodeSessionMetadata(Session(id: "S", activeIndex: -1))
        #expect(bytes == [0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])
        #expect(ChromeProtoCodec.encodeSessionMetadata(Session(id: "S", activeIndex: 0)) == [])
    }

    @Test func nullTimesAreWrittenAsEmptyMessages() {
        let bytes = ChromeProtoCodec.encodeSessionMetadata(Session(id: "S", activeIndex: 0, tabs: [Tab(id: 1)]))
        // items { identifier: 1, metadata { creation_time {}, last_active_time {}, active_page {} } }
        #expect(bytes == [0x0a, 0x0a, 0x08, 0x01, 0x1a, 0x06, 0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00])
    }

    @Test func unknownFieldsSurviveARewrite() throws {
        // A newer Chrome's fields: list field 9 (varint), item field 7 (string), metadata field 12 (fixed32).
        let original: [UInt8] = [
            0x0a, 0x14, 0x08, 0x05, 0x1a, 0x0b, 0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00, 0x65, 0x01, 0x02, 0x03, 0x04,
            0x3a, 0x03, 0x61, 0x62, 0x63, 0x48, 0x2a
        ]
        let session = try ChromeProtoCodec.decodeSessionMetadata(original, id: "S", incognito: false)
        #expect(session.tabs.first?.id == 5)
        #expect(session.unknownFields == [0x48, 0x2a])
        #expect(session.tabs.first?.unknownFields == [0x3a, 0x03, 0x61, 0x62, 0x63])
        var changed = session
        changed.tabs[0].title = "t"
        let rewritten = ChromeProtoCodec.encodeSessionMetadata(changed)
        let reread = try ChromeProtoCodec.decodeSessionMetadata(rewritten, id: "S", incognito: false)
        #expect(reread.unknownFields == [0x48, 0x2a])
        #expect(reread.tabs[0].unknownFields == [0x3a, 0x03, 0x61, 0x62, 0x63])
        #expect(reread.tabs[0].metadataUnknownFields == [0x65, 0x01, 0x02, 0x03, 0x04])
        #expect(reread.tabs[0].title == "t")
        #expect(ChromeProtoCodec.encodeSessionMetadata(session) == original)
    }

    @Test func truncationReportsOffsetAndSalvagesCompleteItems() throws {
        let bytes = ChromeProtoCodec.encodeSessionMetadata(Self.sampleSession())
        let cut = Array(bytes.dropLast(3))
        #expect(throws: FormatError.self) { try ChromeProtoCodec.decodeSessionMetadata(cut, id: "S", incognito: false) }
        let salvage = ChromeProtoCodec.salvageSessionMetadata(cut, id: "S", incognito: false)
        #expect(salvage.damage != nil)
        #expect(salvage.value.tabs.map(\.id) == [Int32.max, 1])
        #expect(salvage.value.groups.isEmpty)
    }

    @Test func badUTF8IsFoundAtItsByte() throws {
        var bytes = ChromeProtoCodec.encodeSessionMetadata(Session(id: "S", tabs: [Tab(id: 2, title: "abc")]))
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "b")))
        bytes[index] = 0xff
        do {
            _ = try ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false)
            Issue.record("expected damage")
        } catch {
            #expect(error == .damaged(file: "session_metadata.pb", offset: index, reason: "PageMetadataStorage field 1 is not valid UTF-8"))
        }
    }

    @Test func outOfRangeEnumsAreReported() {
        let history = TabHistory(
            userAgent: UserAgent(rawValue: 7), lastCommittedIndex: 0,
            items: [
                NavigationItem(
                    url: "https://a/", userAgent: .mobile, referrer: Referrer(url: "https://b/", policy: ReferrerPolicy(rawValue: 12)))
            ])
        let scan = ChromeProtoCodec.scanTabData(ChromeProtoCodec.encodeTabData(history))
        #expect(scan.damage == nil)
        #expect(scan.enumsOutOfRange.map(\.value) == [7, 12])
    }

    /// Random bytes of every length up to 400: nothing traps, every salvage stays within the
    /// bytes and says where it stopped, and the strict decoder agrees with the salvage: what it
    /// refuses is damaged at an offset inside the file, what it takes the salvage reads whole.
    @Test func garbageIsSalvagedWithinItsBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var damaged = 0
        for length in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            let metadata = ChromeProtoCodec.salvageSessionMetadata(bytes, id: "S", incognito: false)
            let tabData = ChromeProtoCodec.salvageTabData(bytes)
            for salvage in [(metadata.damage, metadata.validPrefix), (tabData.damage, tabData.validPrefix)] {
                #expect((0...length).contains(salvage.1), "length \(length)")
                if let damage = salvage.0 {
                    #expect((0...length).contains(damage.offset) && salvage.1 <= damage.offset, "length \(length)")
                } else {
                    #expect(salvage.1 == length, "length \(length): whole, yet read to \(salvage.1)")
                }
            }
            do {
                _ = try ChromeProtoCodec.decodeTabData(bytes)
            } catch {
                damaged += 1
                guard case .damaged(_, let offset, _) = error else {
                    Issue.record("length \(length): \(error)")
                    continue
                }
                #expect((0...length).contains(offset), "length \(length)")
                #expect(tabData.damage != nil || tabData.validPrefix < length, "length \(length): refused, yet salvaged whole")
            }
        }
        // The empty message is whole; random bytes almost never are.
        #expect(damaged > 300, "\(damaged) of 400 refused")
    }
}

@Suite struct WireScannerRegressionTests {
    init() { Browsers.install() }

    /// Found by Fuzz/run wire-salvage: a six-byte field tag the scanner accepted and protobuf refuses.
    @Test func overlongTagIsDamage() {
        let bytes: [UInt8] = [0xb9, 0xff, 0xff, 0x95, 0x80, 0x00, 0x09, 0xdd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x40, 0x00]
        let salvage = ChromeProtoCodec.salvageTabData(bytes)
        #expect(salvage.damage?.offset == 0)
        #expect((try? ChromeProtoCodec.decodeTabData(bytes)) == nil)
    }

    /// The scanner and the decoder agree on every short input: no damage means it decodes.
    @Test func scannerAgreesWithDecoderOnShortInputs() {
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 60)
            var bytes: [UInt8] = []
            for index in 0..<length { bytes.append(UInt8(truncatingIfNeeded: state >> UInt64(index * 4 % 56))) }
            if ChromeProtoCodec.scanTabData(bytes).damage == nil {
                #expect((try? ChromeProtoCodec.decodeTabData(bytes)) != nil, "\(bytes)")
            }
            if ChromeProtoCodec.scanSessionMetadata(bytes).damage == nil {
                #expect((try? ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false)) != nil, "\(bytes)")
            }
        }
    }
}

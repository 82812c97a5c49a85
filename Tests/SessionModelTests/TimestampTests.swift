import SessionModel
import Testing

@Suite struct TimestampTests {
    @Test func formatsCorpusTimesExactly() {
        // 2025-11-21T04:40:00.000001Z from the corpus: Windows-epoch microseconds 13408173600000001.
        let time = Timestamp(microseconds: 13_408_173_600_000_001)
        #expect(time.iso8601 == "2025-11-21T04:40:00.000001Z")
        #expect(Timestamp(iso8601: "2025-11-21T04:40:00.000001Z") == time)
    }

    @Test func nullIsNil() {
        #expect(Timestamp.null.iso8601 == nil)
        #expect(Timestamp(microseconds: 0).isNull)
    }

    @Test func epochsLineUp() {
        #expect(Timestamp(microseconds: 1).iso8601 == "1601-01-01T00:00:00.000001Z")
        #expect(Timestamp(unixMicroseconds: 0).iso8601 == "1970-01-01T00:00:00.000000Z")
        #expect(Timestamp(iso8601: "1970-01-01T00:00:00Z")?.unixMicroseconds == 0)
    }

    @Test func leapDaysAndCenturies() {
        for text in [
            "2000-02-29T23:59:59.999999Z", "2024-02-29T12:00:00.500000Z", "1900-03-01T00:00:00.000000Z",
            "2100-12-31T23:59:59.000000Z", "1601-01-01T00:00:00.000001Z", "9999-12-31T23:59:59.999999Z"
        ] {
            let parsed = Timestamp(iso8601: text)
            #expect(parsed?.iso8601 == text, "\(text)")
        }
        #expect(Timestamp(iso8601: "2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp(iso8601: "1900-02-29T00:00:00Z") == nil)
    }

    @Test func roundTripsEveryFewDaysOverCenturies() {
        var value: Int64 = 1
        while value < 400 * 366 * 86_400_000_000 {
            let time = Timestamp(microseconds: value)
            #expect(Timestamp(iso8601: time.iso8601 ?? "") == time)
            value += 3 * 86_400_000_000 + 3_723_000_017
        }
    }

    @Test func negativeAndHugeValuesFormatWithoutTrapping() {
        let before = Timestamp(microseconds: -1)
        #expect(before.iso8601 == "1600-12-31T23:59:59.999999Z")
        #expect(Timestamp(iso8601: before.iso8601 ?? "") == before)
        for value in [Int64.max, Int64.min, Int64.min + 1] {
            let text = Timestamp(microseconds: value).iso8601 ?? ""
            #expect(!text.isEmpty)
            #expect(Timestamp(iso8601: text)?.microseconds == value)
        }
    }

    @Test func rejectsMalformedText() {
        for text in [
            "", "2025-11-21", "2025-11-21T04:40:00", "2025-13-01T00:00:00Z", "2025-11-21T24:00:00Z",
            "2025-11-21T04:40:00.1234567Z", "2025-11-21T04:40:00.Z", "2025-11-21T04:40:00+01:00", "x025-11-21T04:40:00Z"
        ] {
            #expect(Timestamp(iso8601: text) == nil, "\(text)")
        }
        #expect(Timestamp(iso8601: "2025-11-21T04:40:00.5Z")?.iso8601 == "2025-11-21T04:40:00.500000Z")
        #expect(Timestamp(iso8601: "2025-11-21T04:40:00+00:00")?.iso8601 == "2025-11-21T04:40:00.000000Z")
    }
}

@Suite struct TabIdentifierTests {
    @Test func directoryNamesAreEightLowerHexDigits() {
        #expect(Tab.directoryName(for: 1) == "00000001")
        #expect(Tab.directoryName(for: 0x7fff_ffff) == "7fffffff")
        #expect(Tab.directoryName(for: 300) == "0000012c")
        #expect(Tab.id(fromDirectoryName: "0000012c") == 300)
        #expect(Tab.id(fromDirectoryName: "7fffffff") == Int32.max)
        #expect(Tab.id(fromDirectoryName: "80000000") == nil)
        #expect(Tab.id(fromDirectoryName: "00000000") == nil)
        #expect(Tab.id(fromDirectoryName: "0000012C") == nil)
        #expect(Tab.id(fromDirectoryName: "12c") == nil)
    }

    @Test func groupIDsPrintHighWordFirst() {
        let id = TabGroupID(high: 0xA, low: 0xB)
        #expect(id.hex == "000000000000000A000000000000000B")
        #expect(TabGroupID(hex: id.hex) == id)
        #expect(TabGroupID(hex: "FFFFFFFFFFFFFFFF0000000000000001") == TabGroupID(high: .max, low: 1))
        #expect(TabGroupID(hex: "XYZ") == nil)
        #expect(TabGroupID(high: 0, low: 0).isZero)
    }

    @Test func enumsKeepOutOfRangeNumbers() {
        #expect(UserAgent(name: "desktop") == .desktop)
        #expect(UserAgent(rawValue: 9).name == "9")
        #expect(!UserAgent(rawValue: -1).isKnown)
        #expect(ReferrerPolicy(name: "strictOriginWhenCrossOrigin")?.rawValue == 8)
        #expect(TabGroupColor(name: "orange")?.rawValue == 8)
    }
}

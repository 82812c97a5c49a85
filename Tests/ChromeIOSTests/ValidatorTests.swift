import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The validator over whole inputs held in memory: files missing, damaged or too large.
@Suite struct ValidatorTests {
    init() { Browsers.install() }

    static let base = Samples.directory
    static let metadata = "\(Samples.directory)/session_metadata.pb"

    @Test func healthyProfileRaisesNothingAndReadsEachFileOnce() throws {
        let tree = Samples.tree(Samples.session())
        let report = try Samples.validate(tree)
        #expect(report.findings.isEmpty)
        #expect(report.sessions == 1 && report.tabs == 4)
        #expect(tree.reads.count == 5)
        #expect(tree.reads.values.allSatisfy { $0 == 1 })
    }

    @Test func missingMetadataLosesTheSession() throws {
        let tree = Samples.tree(Samples.session())
        tree.remove(Self.metadata)
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule) == [.metadataMissing])
        #expect(report.findings[0].message.contains("deletes its 4 tab directories"))
        #expect(report.findings[0].file == Self.metadata)
    }

    @Test func damagedMetadataGivesTheScannersOffset() throws {
        let tree = Samples.tree(Samples.session())
        let bytes = try tree.read(Self.metadata)
        for cut in [1, 20, bytes.count - 3] {
            tree.add(Self.metadata, Array(bytes[..<cut]))
            let report = try Samples.validate(tree)
            #expect(report.findings.map(\.rule) == [.metadataUnparsable])
            let expected = ChromeProtoCodec.scanSessionMetadata(Array(bytes[..<cut])).damage?.offset
            #expect(report.findings.first?.offset == expected && expected != nil)
        }
    }

    @Test func tabFilesMissingOrDamaged() throws {
        let session = Samples.session()
        let tree = Samples.tree(session)
        tree.remove("\(Self.base)/00000002")
        tree.remove("\(Self.base)/00000003/data.pb")
        tree.addDirectory("\(Self.base)/00000003")
        tree.add("\(Self.base)/00000004/data.pb", [0x22, 0x40, 0x08])
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule) == [.tabDirectoryMissing, .tabDataMissing, .tabDataUnparsable])
        #expect(report.findings.map(\.tab?.index) == [1, 2, 3])
        #expect(report.findings[2].offset == ChromeProtoCodec.scanTabData([0x22, 0x40, 0x08]).damage?.offset)
    }

    @Test func aFileWhereATabDirectoryBelongs() throws {
        let tree = Samples.tree(Samples.session())
        tree.remove("\(Self.base)/00000002")
        tree.add("\(Self.base)/00000002", [1, 2, 3])
        #expect(try Samples.validate(tree).findings.map(\.rule) == [.tabDirectoryMissing])
    }

    @Test func stateSizeLimit() throws {
        let tree = Samples.tree(Samples.session())
        tree.addSized("\(Self.base)/00000001/state.pb", size: 5 * 1024 * 1024)
        tree.addSized("\(Self.base)/00000002/state.pb", size: 5 * 1024 * 1024 + 1)
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule) == [.stateTooLarge])
        #expect(report.findings.first?.tab?.index == 1)
    }

    @Test func outOfRangeEnumsInBothFiles() throws {
        var session = Samples.session()
        session.groups[0].color = TabGroupColor(rawValue: 9)
        session.tabs[2].history?.items[1].referrer = Referrer(url: "https://r.example/", policy: ReferrerPolicy(rawValue: -1))
        session.tabs[3].history?.userAgent = UserAgent(rawValue: 4)
        let report = try Samples.validate(Samples.tree(session))
        #expect(report.findings.map(\.rule) == [.groupColorOutOfRange, .enumOutOfRange, .enumOutOfRange])
        #expect(report.findings.map(\.tab?.index) == [nil, 2, 3])
        #expect(report.findings[1].message.contains("navigation item 1's referrer policy"))
    }

    @Test func droppedAndInvalidTabsAreNotLookedUp() throws {
        var session = Samples.session()
        session.tabs[1].navigationItemCount = 0
        session.tabs[2].id = 1
        let tree = Samples.tree(session)
        tree.remove("\(Self.base)/00000002")
        let report = try Samples.validate(tree)
        // The group over tabs 1..<3 loses both: it is removed too.
        #expect(report.findings.map(\.rule) == [.groupRangeInvalid, .tabNoHistory, .tabIDDuplicate])
    }

    @Test func aLoneDataFile() throws {
        var history = Samples.history(items: 80)
        history.items[3].url = "internal://local/errorpage?url=x"
        let tree = MemoryTree(["s/00000007/data.pb": ChromeProtoCodec.encodeTabData(history)])
        let input = try InputLocator.locate(tree: tree.readable, file: "s/00000007/data.pb", ancestry: ["SessionStorage", "s", "00000007"])
        let report = Validator().validate(input)
        #expect(report.findings.map(\.rule) == [.historyTooLong, .internalURL])
        #expect(report.findings.allSatisfy { $0.tab == TabReference(index: nil, id: 7) && $0.file == "s/00000007/data.pb" })
    }

    @Test func legacyMagicAndMixedFormats() throws {
        let tree = Samples.tree(Samples.session())
        tree.add("Sessions/\(Samples.sessionID)/session.plist", Array("bplist00".utf8) + [0, 1])
        tree.add("OTR/Sessions/\(Samples.sessionID)/session.plist", Array("bplXst00".utf8))
        // Each side (regular, incognito) picks its format alone: OTR/ has no SessionStorage/, so its legacy session is live.
        let mixed = try Samples.validate(tree)
        #expect(mixed.findings.map(\.rule) == [.legacyUnparsable, .mixedFormats])
        #expect(mixed.findings.map(\.incognito) == [true, false])
        #expect(mixed.findings.first?.offset == 3)
        tree.remove("SessionStorage")
        let legacy = try Samples.validate(tree)
        #expect(legacy.findings.map(\.rule) == [.legacyUnparsable, .legacyUnparsable])
        #expect(legacy.findings.first?.message.contains("trailer") == true)
    }

    @Test func incognitoFindingsCarryTheFlagAndTheirPath() throws {
        let tree = Samples.tree(Samples.session(), root: "OTR")
        tree.remove("OTR/\(Self.base)/00000001/data.pb")
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule) == [.tabDataMissing])
        #expect(report.findings.first?.incognito == true)
        #expect(report.findings.first?.file == "OTR/\(Self.base)/00000001/data.pb")
    }

    /// Whatever the damage, the validator returns, and a file that does not decode is reported.
    @Test func neverTrapsOnMutatedFiles() throws {
        var generator = SplitMix64(seed: 0x5e55)
        let session = Samples.session()
        let metadata = ChromeProtoCodec.encodeSessionMetadata(session)
        let data = ChromeProtoCodec.encodeTabData(session.tabs[0].history ?? TabHistory())
        for round in 0..<400 {
            let tree = Samples.tree(session)
            let damaged = mutate(round % 2 == 0 ? metadata : data, &generator)
            let path = round % 2 == 0 ? Self.metadata : "\(Self.base)/00000001/data.pb"
            tree.add(path, damaged)
            let report = try Samples.validate(tree)
            let rule: Rule = round % 2 == 0 ? .metadataUnparsable : .tabDataUnparsable
            let decodes =
                round % 2 == 0
                ? (try? ChromeProtoCodec.decodeSessionMetadata(damaged, id: "x", incognito: false)) != nil
                : (try? ChromeProtoCodec.decodeTabData(damaged)) != nil
            #expect(
                report.ruleNames.contains(rule.name) == !decodes,
                "round \(round) \(damaged.map { String($0, radix: 16) }) \(report.findings.map(\.message))")
        }
    }

    private func mutate(_ bytes: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
        var copy = bytes
        switch generator.next() % 3 {
        case 0: copy = Array(copy.prefix(Int(generator.next() % UInt64(copy.count))))
        case 1:
            for _ in 0..<(1 + generator.next() % 4) {
                copy[Int(generator.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
        default: copy.insert(UInt8(truncatingIfNeeded: generator.next()), at: Int(generator.next() % UInt64(copy.count)))
        }
        return copy
    }
}

/// Chrome's protobuf runtime keeps a field of an unexpected wire type as an unknown field; what
/// follows it is still loaded, crash-inducing enums included.
@Suite struct WireTypeMismatchTests {
    init() { Browsers.install() }

    @Test func anEnumAfterAMismatchedFieldIsStillFound() throws {
        var history = Samples.history(items: 2)
        history.items[1].userAgent = UserAgent(rawValue: 5)
        // Item 0's url (field 1, a string) replaced by as many bytes of varint fields: field 1 = 1,
        // then field 4 (a message) as varints; no length around it changes.
        var bytes = ChromeProtoCodec.encodeTabData(history)
        let url = Array("https://example.com/page/0".utf8)
        let start = try #require(bytes.firstRange(of: [0x0a, UInt8(url.count)] + url)).lowerBound
        bytes.replaceSubrange(start..<(start + 2 + url.count), with: [0x08, 0x01] + Array(repeating: 0x20, count: url.count))
        #expect(ChromeProtoCodec.scanTabData(bytes).damage != nil)
        let decoded = try ChromeProtoCodec.decodeTabData(bytes)
        #expect(decoded.items.count == 2 && decoded.items[0].url.isEmpty)
        let tree = Samples.tree(Samples.session())
        tree.add("\(Samples.directory)/00000001/data.pb", bytes)
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule).contains(.enumOutOfRange))
        #expect(!report.findings.map(\.rule).contains(.tabDataUnparsable))
    }
}

/// On random session directories, the validator reports exactly the tabs left without data and
/// the entries that the store's model of Chrome's loader says Chrome deletes.
@Suite struct DirectoryAgreementTests {
    init() { Browsers.install() }

    @Test func agreesWithChromeLoadSemantics() throws {
        var generator = SplitMix64(seed: 0xd1ec)
        let extras = ["notes.txt", ".dat.nosync01.abcdef", "0000000A", "000000ff", "7", "metadata.pb"]
        let inner = ["metadata.pb", "state.pb", "x.tmp", "copy"]
        for round in 0..<300 {
            var session = Samples.session(ids: [1, 2, 3, 2].prefix(Int(generator.next() % 5)).map { $0 })
            for index in session.tabs.indices where generator.next() % 5 == 0 { session.tabs[index].navigationItemCount = 0 }
            session.groups = []
            let tree = Samples.tree(session)
            let base = Samples.directory
            for tab in session.tabs where generator.next() % 4 == 0 { tree.remove("\(base)/\(Tab.directoryName(for: tab.id))/data.pb") }
            for tab in session.tabs where generator.next() % 5 == 0 { tree.remove("\(base)/\(Tab.directoryName(for: tab.id))") }
            for tab in session.tabs where generator.next() % 3 == 0 {
                tree.add("\(base)/\(Tab.directoryName(for: tab.id))/\(inner[Int(generator.next() % 4)])", [1])
            }
            for name in extras where generator.next() % 3 == 0 {
                if name.hasPrefix("0") || name == "7" { tree.add("\(base)/\(name)/data.pb", [1]) } else { tree.add("\(base)/\(name)", [1]) }
            }
            let report = try Samples.validate(tree)

            let entries = tree.readable.list(base).map { name in
                ChromeLoadSemantics.DirectoryEntry(
                    name: name, isDirectory: tree.kind(of: "\(base)/\(name)") == .directory,
                    children: tree.readable.list("\(base)/\(name)"))
            }
            let outcome = ChromeLoadSemantics.load(
                metadata: try tree.read("\(base)/session_metadata.pb"), entries: entries,
                id: Samples.sessionID, incognito: false)
            let withoutData = report.findings.filter { [.tabDirectoryMissing, .tabDataMissing].contains($0.rule) }.compactMap(\.tab?.id)
            #expect(Set(withoutData) == Set(outcome.tabsWithoutData), "round \(round)")
            // Chrome lists the session directory alone: nothing inside a kept tab directory is deleted.
            let deletionRules: [Rule] = [.unreferencedEntry, .tabDirectoryNameInvalid, .temporaryFile, .strayFile]
            var deleted = Set(report.findings.filter { deletionRules.contains($0.rule) }.map { String($0.file.dropFirst(base.count + 1)) })
            // A dropped tab's directory goes too, unless a restored tab has the same id.
            let list = Samples.list(session)
            let kept = Set(session.tabs.indices.filter { list.fate($0) == .kept }.map { session.tabs[$0].id })
            for finding in report.findings where finding.rule == .tabNoHistory {
                let id = finding.tab?.id ?? 0
                let name = Tab.directoryName(for: id)
                if !kept.contains(id), tree.kind(of: "\(base)/\(name)") != nil { deleted.insert(name) }
            }
            #expect(deleted == Set(outcome.deletedEntries), "round \(round): \(deleted.sorted()) vs \(outcome.deletedEntries)")
        }
    }
}

/// A list entry that disagrees with its data.pb is the stale side: findings name session_metadata.pb.
@Suite struct StaleListEntryTests {
    init() { Browsers.install() }

    @Test func reportedAgainstTheListAtTheStaleField() throws {
        var session = Samples.session()
        session.tabs[1].navigationItemCount = 5
        session.tabs[2].title = "Old"
        let tree = Samples.tree(session)
        let report = try Samples.validate(tree)
        #expect(report.findings.map(\.rule) == [.itemCountMismatch, .activePageMismatch])
        #expect(report.findings.map(\.tab?.index) == [1, 2])
        #expect(report.findings.allSatisfy { $0.file == ValidatorTests.metadata })
        let bytes = try tree.read(ValidatorTests.metadata)
        let countOffset = try #require(report.findings[0].offset)
        #expect(bytes[countOffset] == 5 && bytes[countOffset - 1] == 0x20)
        let pageOffset = try #require(report.findings[1].offset)
        #expect(bytes[pageOffset] == 0x1a)
    }
}

import Archive
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Repair of every profile of the gallery (Fixtures/gallery), in a scratch copy: the result
/// validates clean, every tab that left a trace is still there, the originals are in Backups/
/// with a correct manifest, and a second run changes no byte.
@Suite struct RepairGalleryTests {
    init() { Browsers.install() }

    static let gallery = GalleryTests.repository.appendingPathComponent("Fixtures/gallery").path

    /// A scratch copy of a profile of a gallery (this one by default).
    static func copy(_ profile: String, from gallery: String = gallery) throws -> String {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("repair-\(profile)-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: "\(gallery)/\(profile)", toPath: target)
        return target
    }

    @Test(arguments: GalleryTests.cases.map(\.profile))
    func profileRepairsToACleanProfile(_ name: String) throws {
        let profile = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = AsideTestSupport.snapshot(profile)
        let traces = Self.traces(profile)
        let repairer = Repairer(profile: profile, aside: AsideTestSupport.aside(profile))

        let dryRun = try repairer.run(dryRun: true)
        #expect(dryRun.steps.isEmpty && AsideTestSupport.snapshot(profile) == before)
        #expect(FileManager.default.fileExists(atPath: "\(profile)/\(ProfileLock.staleFileName)") == false)

        let result = try repairer.run(dryRun: false)
        #expect(result.isClean, "\(name): \(result.remaining.map(\.message))")
        // The dry run validated the profile as the plan leaves it: it said what the run left.
        let described = { (findings: [Finding]) in findings.map { "\($0.rule) \($0.file) \($0.message)" } }
        #expect(described(dryRun.remaining) == described(result.remaining), "\(name)")
        #expect(dryRun.plan.actions == result.plan.actions, "\(name)")
        let after = Validator().validate(try InputOpener.open(profile))
        #expect(!after.fails(strict: true), "\(name): \(after.findings.map(\.message))")
        #expect(after.findings.allSatisfy { !$0.needsRepair })
        #expect(result.plan.actions.allSatisfy { Rule.named($0.rule.name) != nil })
        if name == "healthy" { #expect(result.plan.isEmpty && result.steps.isEmpty) }

        let present = try Self.presentURLs(profile)
        for trace in traces { #expect(present.contains(trace), "\(name): the tab of \(trace) is gone") }
        try Self.checkSetAside(result.steps, profile: profile, before: before)

        let settled = AsideTestSupport.snapshot(profile)
        let second = try repairer.run(dryRun: false)
        #expect(second.plan.isEmpty && second.steps.isEmpty && second.isClean)
        #expect(AsideTestSupport.snapshot(profile) == settled)
    }

    /// validate alone checks each tab directory as it is read and lets it go; it finds what
    /// validating a whole read finds.
    @Test(arguments: GalleryTests.cases.map(\.profile))
    func validatingAloneFindsWhatValidatingAWholeReadFinds(_ name: String) throws {
        let input = try InputOpener.open("\(Self.gallery)/\(name)")
        let alone = Validator().validate(input)
        let whole = Validator().validate(InputRead(input, depth: .tabs))
        let described = { (report: ValidationReport) in report.findings.map { "\($0.rule) \($0.file) \($0.offset ?? -1) \($0.message)" } }
        #expect(described(alone) == described(whole), "\(name)")
        #expect(alone.tabs == whole.tabs && alone.sessions == whole.sessions)
    }

    /// The dry run reads only what its plan changes and takes every other session from the read
    /// the plan was made from: it finds what a fresh read of the planned profile finds.
    @Test(arguments: GalleryTests.cases.map(\.profile))
    func aPlannedProfileReadReusingTheFirstReadMatchesAFreshRead(_ name: String) throws {
        let input = try InputOpener.open("\(Self.gallery)/\(name)")
        let read = InputRead(input, depth: .rewrite)
        let plan = RepairPlanner().plan(read, report: Validator().validate(read))
        let planned = try InputLocator.locate(tree: PlannedTree(base: input.tree, plan: plan).tree, ancestry: [])
        let fresh = Validator().validate(planned)
        let reused = Validator().validate(InputRead(planned, depth: .tabs, reusing: read, except: plan.directories))
        let described = { (report: ValidationReport) in report.findings.map { "\($0.rule) \($0.file) \($0.offset ?? -1) \($0.message)" } }
        #expect(described(reused) == described(fresh), "\(name)")
        #expect(reused.tabs == fresh.tabs && reused.sessions == fresh.sessions)
    }

    /// Each set-aside entry holds the original files byte for byte, and its manifest lists each
    /// with its size and SHA-256.
    static func checkSetAside(_ steps: [RepairStep], profile: String, before: [String: Data]) throws {
        for case .setAside(let directory, _, let path) in steps {
            let originals = before.filter { $0.key.hasPrefix(directory + "/") }
            let manifest = try JSONParser.parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: "\(profile)/\(path)/manifest.json"))),
                file: "manifest.json")
            #expect(manifest["originalPath"] == .string(directory))
            guard case .array(let files)? = manifest["files"] else {
                Issue.record("\(path): manifest without files")
                continue
            }
            var listed = Set<String>()
            for file in files {
                guard case .string(let relative)? = file["path"], case .string(let hash)? = file["sha256"],
                    case .int(let size)? = file["size"]
                else {
                    Issue.record("\(path): malformed manifest entry")
                    continue
                }
                listed.insert(relative)
                let original = originals["\(directory)/\(relative)"]
                let kept = FileManager.default.contents(atPath: "\(profile)/\(path)/\(relative)")
                #expect(original != nil && kept == original, "\(relative) is not the original")
                #expect(kept.map { SHA256.hex(SHA256.hash(Array($0))) } == hash && kept?.count == Int(size))
            }
            #expect(listed == Set(originals.keys.map { String($0.dropFirst(directory.count + 1)) }))
        }
    }

    /// The URLs of every tab that left a trace in an optimized session: a list entry, or a tab
    /// directory whose data.pb holds an item (internal wrappers taken as the page they wrap).
    static func traces(_ profile: String) -> Set<String> {
        var urls = Set<String>()
        for storage in ["SessionStorage", "OTR/SessionStorage"] {
            let tree = ReadableTree.disk("\(profile)/\(storage)")
            for session in tree.list("") where tree.kind(of: session) == .directory {
                if let bytes = try? tree.read("\(session)/session_metadata.pb") {
                    let list = ChromeProtoCodec.salvageSessionMetadata(bytes, id: session, incognito: false).value
                    urls.formUnion(list.tabs.map(\.url).filter { !$0.isEmpty })
                }
                for name in tree.list(session) {
                    guard let bytes = try? tree.read("\(session)/\(name)/data.pb") else { continue }
                    let history = (try? ChromeProtoCodec.decodeTabData(bytes)) ?? ChromeProtoCodec.salvageTabData(bytes).value
                    if !history.items.isEmpty { urls.insert(Tab.summarising(history, id: 1).url) }
                }
            }
        }
        for sessions in ["Sessions", "OTR/Sessions"] {
            let tree = ReadableTree.disk("\(profile)/\(sessions)")
            for session in tree.list("") {
                guard let bytes = try? tree.read("\(session)/session.plist"),
                    let window = try? LegacySessionCodec.decodeWindow(bytes)
                else { continue }
                urls.formUnion(window.session(id: session, incognito: false).tabs.map(\.url).filter { !$0.isEmpty })
            }
        }
        return Set(urls.map(SessionRebuilder.unwrapped))
    }

    /// The URLs of the tabs of a profile: their list entries and every item of their histories.
    static func presentURLs(_ profile: String) throws -> Set<String> {
        let input = try InputOpener.open(profile)
        var urls = Set<String>()
        for source in input.sessions where source.kind == .optimizedDirectory || RepairPlanner.isLiveLegacyFile(source.path) {
            for tab in try SessionReader(input: input).read(source, history: true).tabs {
                urls.insert(tab.url)
                for item in tab.history?.items ?? [] { urls.formUnion([item.url, item.displayURL]) }
            }
        }
        return urls
    }
}

import Foundation
import Testing

/// Every command on session files real browsers wrote (Fixtures/real, with their provenance),
/// and on profiles of the Chromium family's products that number or time their commands
/// otherwise (Fixtures/chromium-desktop/products, from make-products): each read as that
/// browser reads it.
@Suite struct RealFileTests {
    static let edge = "Fixtures/real/chromium-desktop/edge-141"
    static let edgeFile = "Sessions/Session_13404976876976421"

    /// The record ids of an SNSS file, in order, with their contents' sizes.
    static func records(_ path: String) throws -> [(id: UInt8, size: Int)] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var out: [(UInt8, Int)] = []
        var offset = 8
        while offset + 3 <= bytes.count {
            let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            guard size > 0, offset + 2 + size <= bytes.count else { break }
            out.append((bytes[offset + 2], size - 1))
            offset += 2 + size
        }
        return out
    }

    /// Edge 141's session: healthy as Edge restores it (one window, one tab), Edge named from its
    /// records, and repair changes nothing.
    @Test func edgesOwnCommandsAreReadAsEdgeReadsThem() throws {
        let validate = try CLI.run(["validate", CLI.path(Self.edge), "--format", "json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let document = try FirefoxDesktopCommandTests.json(validate.stdout)
        #expect(document["product"] as? String == "edge" && (document["findings"] as? [Any])?.isEmpty == true, "\(document)")
        #expect((document["productEvidence"] as? String)?.contains("records") == true)
        let text = try CLI.run(["validate", CLI.path(Self.edge)])
        #expect(text.stdout.contains("browser: Microsoft Edge") && !text.stdout.contains("unknown"), "\(text.stdout)")
        let inspect = try CLI.run(["inspect", CLI.path(Self.edge), "--format", "json"])
        #expect(inspect.status == 0 && inspect.stdout.contains("\"product\": \"edge\""), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("edge://newtab/") && !inspect.stdout.contains("\"salvaged\""), "\(inspect.stdout)")
        let profile = try ProfileLayoutEdgeTests.copy(Self.edge)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = RepairCommandTests.files(profile)
        #expect(try CLI.run(["repair", profile]).status == 0)
        #expect(RepairCommandTests.files(profile) == before)
    }

    /// Every document about Edge's profile names the product and what says so: repair, diff,
    /// aside list, compress, report (Edge known from its records, or from its place where the
    /// command does not read the records).
    @Test func everyDocumentNamesTheProduct() throws {
        let root = try CLI.temporaryDirectory("product-documents")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/Users/ann/AppData/Local/Microsoft/Edge/User Data/Default"
        try FileManager.default.createDirectory(atPath: parentDirectory(profile), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.path(Self.edge), toPath: profile)
        let edge = CLI.path(Self.edge)
        for arguments in [
            ["repair", "--dry-run", profile], ["diff", edge, profile], ["aside", "list", profile],
            ["compress", profile, "-o", "\(root)/edge.tar.gz"]
        ] {
            let result = try CLI.run(arguments + ["--format", "json"])
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            let document = try FirefoxDesktopCommandTests.json(result.stdout)
            let product = document["product"] as? String ?? (document["products"] as? [String: String])?["b"]
            #expect(product == "edge", "\(arguments): \(result.stdout)")
        }
        let diff = try FirefoxDesktopCommandTests.json(try CLI.run(["diff", edge, profile, "--format", "json"]).stdout)
        let evidence = try #require(diff["productEvidence"] as? [String: String])
        #expect(evidence["a"]?.contains("records") == true && evidence["b"]?.contains("place") == true, "\(evidence)")
        let report = try CLI.run(["report", edge, "-o", "\(root)/report.html"])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: "\(root)/report.html", encoding: .utf8)
        #expect(page.contains("<tr><th>Browser</th><td>Microsoft Edge (known from the ids of its session records)</td></tr>"))
    }

    /// An Edge session that loses its tab (a command no browser writes before its navigation):
    /// repair writes a file holding Edge's own commands as read, and Edge's reading finds it whole.
    @Test func aRepairOfEdgesSessionKeepsItsOwnCommands() throws {
        let profile = try ProfileLayoutEdgeTests.copy(Self.edge)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let path = "\(profile)/\(Self.edgeFile)"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Before the record at 2081 (a 132 before the tab's navigation): id 120, 8 bytes.
        bytes.insert(contentsOf: [9, 0, 120, 0, 0, 0, 0, 0, 0, 0, 0], at: 2081)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let damaged = try CLI.run(["validate", profile])
        #expect(damaged.status == 1 && damaged.stdout.contains("snss-command-unknown"), "\(damaged.stdout)")
        let repair = try CLI.run(["repair", profile])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        let written = try #require(
            try FileManager.default.contentsOfDirectory(atPath: "\(profile)/Sessions").first { $0 != "Session_13404976876976421" })
        let ids = try Self.records("\(profile)/Sessions/\(written)")
        #expect(ids.contains { $0.id == 131 } && ids.contains { $0.id == 132 } && ids.contains { $0.id == 34 && $0.size == 8 }, "\(ids)")
        #expect(!ids.contains { $0.id == 120 })
        let after = try CLI.run(["validate", profile, "--format", "json"])
        #expect(after.status == 0 && after.stdout.contains("\"product\": \"edge\""), "\(after.stdout)")
    }

    /// Vivaldi's numbering (its published code shifts Chromium's 21 to 34 by two and adds its
    /// own): every tab and time is read, and a repair writes Vivaldi's numbering back.
    @Test func vivaldisNumberingIsReadAndWrittenAsVivaldiDoes() throws {
        let fixture = "Fixtures/chromium-desktop/products/vivaldi/Default"
        let inspect = try CLI.run(["inspect", CLI.path(fixture), "--format", "json"])
        #expect(inspect.status == 0 && inspect.stdout.contains("\"product\": \"vivaldi\""), "\(inspect.stdout)")
        #expect(inspect.stdout.components(separatedBy: "\"lastActiveTime\": \"2025-07-14T20:52:20").count == 4, "\(inspect.stdout)")
        let profile = try ProfileLayoutEdgeTests.copy(fixture)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let path = "\(profile)/Sessions/Session_13397000000000000"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let records = try Self.records(path)
        // Before the third tab's SetTabWindow (the last record 0): id 120.
        var offset = 8
        var at = 8
        for record in records {
            if record.id == 0 { at = offset }
            offset += 3 + record.size
        }
        bytes.insert(contentsOf: [9, 0, 120, 0, 0, 0, 0, 0, 0, 0, 0], at: at)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try CLI.run(["validate", profile]).status == 1)
        let repair = try CLI.run(["repair", profile])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        let written = try #require(
            try FileManager.default.contentsOfDirectory(atPath: "\(profile)/Sessions").first { $0 != "Session_13397000000000000" })
        let ids = try Self.records("\(profile)/Sessions/\(written)").map(\.id)
        // Vivaldi's own 21 and 22 kept, Chromium's last-active time written as Vivaldi's 23.
        #expect(ids.contains(21) && ids.contains(22) && ids.contains(23) && ids.contains(33), "\(ids)")
        // The file written (the old one stays beside it until Vivaldi deletes it at launch).
        let after = try CLI.run(["inspect", profile])
        let written3 = after.stdout.components(separatedBy: "\(written)#1 (snss): 3 tabs").last ?? ""
        #expect(written3.components(separatedBy: "active 2025-07-14T20:52:20").count == 4, "\(after.stdout)")
        #expect(try CLI.run(["validate", profile]).status == 0)
    }

    /// The product is known from the profile's place, and from its user-data directory's Local
    /// State, as each browser lays its profiles out.
    @Test(arguments: [
        ("Users/ann/AppData/Local/BraveSoftware/Brave-Browser/User Data/Default", "brave"),
        ("Users/ann/AppData/Local/Microsoft/Edge/User Data/Profile 1", "edge"),
        ("home/ann/.config/vivaldi/Default", "vivaldi"),
        ("Users/ann/AppData/Roaming/Opera Software/Opera Stable", "opera"),
        ("home/ann/.config/google-chrome/Default", "chrome"),
        ("Users/ann/Library/Application Support/Chromium/Default", "chromium"),
        // A directory merely named after a browser says nothing: the innermost default place does.
        ("home/vivaldi/.config/google-chrome/Default", "chrome"),
        ("cases/vivaldi-vs-chrome/Users/bo/AppData/Local/Google/Chrome/User Data/Default", "chrome")
    ])
    func theProductIsKnownFromItsPlace(place: String, product: String) throws {
        let root = try CLI.temporaryDirectory("product-place")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/\(place)"
        try FileManager.default.createDirectory(atPath: parentDirectory(profile), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/chromium-desktop/gallery/healthy"), toPath: profile)
        let result = try CLI.run(["validate", profile, "--format", "json"])
        #expect(result.stdout.contains("\"product\": \"\(product)\""), "\(place): \(result.stdout)")
        #expect(result.stdout.contains("known from its place"), "\(result.stdout)")
    }

    @Test func theProductIsKnownFromLocalState() throws {
        let root = try CLI.temporaryDirectory("product-local-state") + "/User Data"
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(root)) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/chromium-desktop/gallery/healthy"), toPath: "\(root)/Default")
        try Data("{\"edge\": {\"x\": 1}, \"profile\": {}}".utf8).write(to: URL(fileURLWithPath: "\(root)/Local State"))
        let result = try CLI.run(["validate", root, "--format", "json"])
        #expect(result.stdout.contains("\"product\": \"edge\"") && result.stdout.contains("Local State"), "\(result.stdout)")
    }

    /// A Chrome from before December 2023 wrote last-active times on the monotonic clock: never
    /// shown as a date.
    @Test func aMonotonicTimeIsNeverShownAsADate() throws {
        let fixture = CLI.path("Fixtures/chromium-desktop/products/chrome-2023/Default")
        let json = try CLI.run(["inspect", fixture, "--format", "json"])
        #expect(json.stdout.contains("\"lastActiveClock\": \"monotonic\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"lastActiveSinceBootMicroseconds\": 273601000000"), "\(json.stdout)")
        #expect(!json.stdout.contains("\"lastActiveTime\": \"16"), "\(json.stdout)")
        let text = try CLI.run(["inspect", fixture])
        #expect(text.stdout.contains("active 3d 04:00:01 after boot (monotonic clock, not a date)"), "\(text.stdout)")
        #expect(!text.stdout.contains("1601-") && !text.stdout.contains("1600-"), "\(text.stdout)")
    }

    /// diff says which tabs were read past where the browser stops, and shows a monotonic time
    /// as no date.
    @Test func diffMarksSalvageAndMonotonicTimes() throws {
        let salvage = try CLI.run([
            "diff", CLI.path("Fixtures/chromium-desktop/gallery/healthy"), CLI.path("Fixtures/chromium-desktop/gallery/command-unparsable"),
            "--format", "json"
        ])
        #expect(salvage.status == 1 && salvage.stdout.contains("\"salvaged\""), "\(salvage.stdout)")
        let text = try CLI.run([
            "diff", CLI.path("Fixtures/chromium-desktop/products/chrome-2023/Default"),
            CLI.path("Fixtures/chromium-desktop/products/vivaldi/Default")
        ])
        #expect(text.stdout.contains("last active: 273601000000 µs after boot (monotonic clock) -> 2025-07-14T20:52:20"), "\(text.stdout)")
        #expect(!text.stdout.contains("1601-"), "\(text.stdout)")
    }

    /// Firefox 57's profile: intact, every command reads it, repair has nothing to do.
    @Test func firefox57IsReadWhole() throws {
        let profile = CLI.path("Fixtures/real/firefox-desktop/firefox-57")
        let validate = try CLI.run(["validate", profile, "--format", "json"])
        #expect(validate.status == 0 && validate.stdout.contains("\"product\": \"firefox\""), "\(validate.stdout)")
        let inspect = try CLI.run(["inspect", profile])
        #expect(inspect.status == 0 && inspect.stdout.contains("sessionstore.jsonlz4#1 (sessionstore): 1 tab"), "\(inspect.stdout)")
        let repair = try CLI.run(["repair", "--dry-run", profile])
        #expect(repair.status == 0 && repair.stdout.contains("nothing to change"), "\(repair.stdout)")
        let diff = try CLI.run(["diff", profile, profile])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let directory = try CLI.temporaryDirectory("real-report")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["report", profile, "-o", directory + "/report.html"]).status == 0)
    }

    /// Each window's tab URLs of inspect's JSON document.
    static func inspectedWindows(_ path: String) throws -> [[String]] {
        let result = try CLI.run(["inspect", path, "--format", "json"])
        let sessions = try #require(try FirefoxDesktopCommandTests.json(result.stdout)["sessions"] as? [[String: Any]])
        return sessions.map { ($0["tabs"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String } }
    }

    /// inspect agrees with the independent readers (written from the browsers' code, apart from
    /// sessionctl's): read_snss.py for Chromium desktop's products, read_sessionstore.py for
    /// every file of Firefox 57's profile.
    @Test func inspectAgreesWithTheIndependentReaders() throws {
        for profile in [
            Self.edge, "Fixtures/chromium-desktop/products/vivaldi/Default", "Fixtures/chromium-desktop/products/chrome-2023/Default"
        ] {
            let expected = try ChromiumDesktopCommandTests.chromeRestores(CLI.path(profile))
            let inspected = try Self.inspectedWindows(CLI.path(profile))
            #expect(!expected.isEmpty && inspected == expected, "\(profile)")
        }
        let firefox = "Fixtures/real/firefox-desktop/firefox-57"
        for file in [
            "sessionstore.jsonlz4", "sessionstore-backups/previous.jsonlz4", "sessionstore-backups/recovery.jsonlz4",
            "sessionstore-backups/recovery.baklz4", "sessionstore-backups/upgrade.jsonlz4-20171227151104"
        ] {
            let path = CLI.path("\(firefox)/\(file)")
            let reader = try CLI.runProgram("/usr/bin/env", ["python3", CLI.path("Fixtures/firefox-desktop/read_sessionstore.py"), path])
            let expected = try #require(try FirefoxDesktopCommandTests.json(reader.stdout)["windows"] as? [[String]], "\(reader.stderr)")
            let inspected = try Self.inspectedWindows(path)
            #expect(!expected.isEmpty && inspected == expected, "\(file)")
        }
    }

    /// Firefox for iOS's legacy archives, from the iOS Simulator: every tab read.
    @Test(arguments: [("tabsState5.archive", 5), ("tabsState20.archive", 18)])
    func firefoxIOSArchivesAreRead(name: String, tabs: Int) throws {
        let result = try CLI.run(["inspect", CLI.path("Fixtures/real/firefox-ios/\(name)")])
        #expect(result.stdout.contains("(tabs-archive): \(tabs) tabs"), "\(result.stdout)")
    }
}

import TestSupport
import Testing

@testable import SessionFormats

/// What each browser family says `aside push` sets aside of its profiles (`SetAsideUnit`), and
/// what it loads first, on the fixtures of each family.
@Suite struct SetAsideUnitTests {
    init() { Browsers.install() }

    static let fixtures = Corpus.repository.appendingPathComponent("Fixtures").path

    /// The family that recognises the fixture at `path` (under Fixtures/), the profile located, and its units.
    func units(_ path: String, session: String? = nil, incognito: Bool = false) throws -> (family: String, units: [SetAsideUnit]) {
        let input = try InputOpener.open(Self.fixtures + "/" + path)
        let family = BrowserFamilies.family(of: input)
        return (family.name, try family.setAsideUnits(input, session: session, incognito: incognito))
    }

    @Test func chromeForIOSSetsAsideEachSessionDirectory() throws {
        let (family, units) = try units("profiles/healthy")
        #expect(family == "chrome-ios")
        #expect(
            units.map(\.content) == [
                .directory("SessionStorage/7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B"),
                .directory("SessionStorage/7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B-Inactive"),
                .directory("SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765")
            ])
        #expect(units.allSatisfy { !$0.incognito && $0.removalOrder.isEmpty })
        let one = try self.units("profiles/healthy", session: "E9D8C7B6-A5F4-4321-8765-0FEDCBA98765").units
        #expect(one.map(\.session) == ["E9D8C7B6-A5F4-4321-8765-0FEDCBA98765"])
        #expect(try self.units("profiles/healthy", session: "0000").units.isEmpty)
        let otr = try self.units("profiles/healthy", incognito: true).units
        #expect(!otr.isEmpty && otr.allSatisfy { $0.incognito })
        #expect(otr.allSatisfy { if case .directory(let path) = $0.content { path.hasPrefix("OTR/SessionStorage/") } else { false } })
    }

    @Test func firefoxForIOSRemovesTheWindowFileLast() throws {
        let (family, units) = try units("firefox-ios/gallery/healthy")
        #expect(family == "firefox-ios")
        let window = "profile.profile/window-data/window-E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"
        let unit = try #require(units.first)
        #expect(units.count == 1 && unit.session == "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B")
        guard case .files(let files, let last) = unit.content else {
            Issue.record("not files: \(unit.content)")
            return
        }
        #expect(files.count == 4 && files.contains("profile.profile/window-data-backup/window-E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"))
        #expect(last == [window])
        #expect(unit.removalOrder.last == window && Set(unit.removalOrder) == Set(files))
        #expect(try self.units("firefox-ios/gallery/healthy", incognito: true).units.isEmpty)
        #expect(try self.units("firefox-ios/gallery/healthy", session: "E3F1A7C2").units.isEmpty)
    }

    @Test func chromiumDesktopRemovesTheFileChromeRestoresLast() throws {
        let (family, units) = try units("chromium-desktop/gallery/marker-missing")
        #expect(family == "chromium-desktop")
        let unit = try #require(units.first)
        #expect(units.count == 1 && unit.session == "Sessions")
        #expect(unit.removalOrder.last == "Sessions/Session_13397000000000000")
        let healthy = try #require(try self.units("chromium-desktop/gallery/healthy").units.first)
        #expect(
            healthy.content
                == .files(
                    ["Sessions/Session_13397000000000000", "Sessions/Tabs_13397000001000000"],
                    removedLast: ["Sessions/Session_13397000000000000"]))
        // Before Sessions/, Chromium read its legacy session files.
        let legacy = try #require(try self.units("chromium-desktop/gallery/legacy-names").units.first)
        #expect(legacy.content == .files(["Current Session", "Last Session"], removedLast: ["Current Session", "Last Session"]))
        #expect(try self.units("chromium-desktop/gallery/healthy", session: "Sessions/Session_13397000000000000#1").units.isEmpty)
        #expect(try self.units("chromium-desktop/gallery/healthy", incognito: true).units.isEmpty)
    }

    @Test func firefoxDesktopRemovesTheCleanFileLast() throws {
        let (family, units) = try units("firefox-desktop/gallery/healthy")
        #expect(family == "firefox-desktop")
        #expect(units.map(\.session) == ["sessionstore"])
        #expect(units.first?.removalOrder.last == "sessionstore.jsonlz4")
    }

    @Test func anEntryIsToldByTheNamesAtItsTop() {
        #expect(BrowserFamilies.family(holdingEntryNames: ["manifest.json", "Sessions"])?.name == "chromium-desktop")
        #expect(BrowserFamilies.family(holdingEntryNames: ["Current Session"])?.name == "chromium-desktop")
        #expect(BrowserFamilies.family(holdingEntryNames: ["profile.profile"])?.name == "firefox-ios")
        #expect(BrowserFamilies.family(holdingEntryNames: ["window-data", "tab-session-data"])?.name == "firefox-ios")
        #expect(BrowserFamilies.family(holdingEntryNames: ["sessionstore-backups"])?.name == "firefox-desktop")
        // A Chrome for iOS entry holds a session directory's own files.
        #expect(BrowserFamilies.family(holdingEntryNames: ["manifest.json", "session_metadata.pb", "00000001"]) == nil)
    }
}

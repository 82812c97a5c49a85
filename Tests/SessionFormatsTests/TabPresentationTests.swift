import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// How each family's tabs are shown as text, looked up by a session's format.
@Suite struct TabPresentationTests {
    init() { Browsers.install() }

    @Test func eachFormatIsShownItsFamilysWay() {
        for format in [SessionFormat.optimized, .legacy] {
            let look = BrowserFamilies.presentation(of: format)
            #expect(!look.namedByStableIdentifier && !look.marksPrivateTabs && !look.marksSalvagedTabs && look.historyFile == "data.pb")
        }
        for format in [SessionFormat.windowData, .tabsArchive] {
            let look = BrowserFamilies.presentation(of: format)
            // Salvaged: a window's tabs read before the damage when Firefox loads neither file.
            #expect(look.namedByStableIdentifier && look.marksPrivateTabs && look.marksSalvagedTabs)
            #expect(look.historyFile == "tab-session-data file")
        }
        // A Firefox desktop file Firefox does not load for its damage: its tabs are marked salvaged.
        #expect(BrowserFamilies.presentation(of: .sessionstore).marksSalvagedTabs)
        #expect(BrowserFamilies.presentation(of: .snss).marksSalvagedTabs && BrowserFamilies.presentation(of: .snss).marksPrivateTabs)
        // A format no family reads is shown as no family's: tabs by their number, no marks.
        #expect(BrowserFamilies.presentation(of: SessionFormat(rawValue: "netscape")) == UnrecognisedFamily().tabPresentation)
    }
}

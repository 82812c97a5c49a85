import ChromiumDesktop
import SessionFormats

/// Chromium desktop's SNSS files: whatever the bytes, the record reader and both replays return;
/// salvage's windows, written as a full state, read back whole (no damage, no command Chrome
/// stops at, the marker) and Chrome's replay of them gives the same windows, tabs and
/// selections; every field a navigation decodes only when asked is asked for. The pickle target
/// reads a navigation from any bytes, and every field of it.
enum SNSSFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        // The input as it is, and after an SNSS version-3 header when it lacks one.
        let file = SNSSFile.hasSignature(bytes) ? bytes : SNSSFile.signature + [3, 0, 0, 0] + bytes
        for type in [ChromiumDesktopLayout.FileType.session, .tabs] {
            let decoded = SNSSSessionFile.decode(file, type: type)
            for record in decoded.file.records where record.contents.upperBound > file.count || record.offset < 8 {
                fatalError("a record outside the file")
            }
            let records = decoded.file.records
            if decoded.file.readByChrome != (records.firstIndex(where: \.salvaged) ?? records.count)
                || decoded.file.markerIndex != records[..<decoded.file.readByChrome].firstIndex(where: { $0.id == SNSSFile.markerID })
            {
                fatalError("the records Chrome reads or the marker noted wrongly")
            }
            // Every field a navigation decodes only when asked, asked for.
            for window in decoded.salvage?.windows ?? [] {
                for tab in window.tabs { for navigation in tab.navigations { touch(navigation) } }
            }
            _ = decoded.sessions(file: "Session_1", history: true)
            guard let salvage = decoded.salvage else { continue }
            let written = SNSSWriter.fullState(of: salvage, source: file)
            let again = SNSSSessionFile.decode(written, type: .session)
            guard again.file.damage.isEmpty, again.file.markerIndex != nil, let chrome = again.chrome, chrome.stops.isEmpty else {
                fatalError("a written full state does not read whole")
            }
            if shape(chrome) != shape(salvage) { fatalError("Chrome's replay of the written state differs from salvage's") }
        }
    }

    /// Each window's tabs: id, selected URL, pinned, group; and the selections.
    private static func shape(_ replay: SNSSReplay) -> [[String]] {
        replay.windows.map { window in
            ["selected \(window.selectedPosition)"]
                + window.tabs.map { tab in
                    let url = tab.navigations.isEmpty ? "" : tab.navigations[tab.selectedPosition].url
                    return
                        "\(tab.id) \(url) \(tab.selectedPosition) \(tab.pinned) \(tab.navigations.count) \(String(describing: tab.group))"
                }
        }
    }

    @Sendable static func pickle(_ bytes: [UInt8]) {
        if let navigation = SNSSNavigation.decode(bytes, 0..<bytes.count) {
            touch(navigation)
            var changed = navigation
            changed.transition = navigation.transition &+ 1
            if changed.url != navigation.url || changed.title != navigation.title || changed.timestamp != navigation.timestamp {
                fatalError("changing one field of a navigation changed another")
            }
        }
        _ = SNSSNavigation.decodeCut(bytes, 0..<bytes.count)
    }

    /// Reads every field of `navigation`, those decoded only when asked among them.
    private static func touch(_ navigation: SNSSNavigation) {
        _ = (navigation.url, navigation.title, navigation.transition, navigation.referrer, navigation.originalRequestURL)
        _ = (navigation.timestamp, navigation.httpStatus)
    }
}

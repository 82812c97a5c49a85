import FirefoxIOS
import SessionFormats

/// Firefox for iOS's legacy tab archives: what reads is told by the content alone, loads in Firefox
/// only when whole and Codable, and migrates to a window file Firefox loads with every tab.
enum FirefoxLegacyFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        guard let archive = try? FirefoxLegacyArchive.decode(bytes, file: "a") else { return }
        if archive.loadsInFirefox && (archive.shape != .codable || !archive.damage.isEmpty) {
            fatalError("an archive Firefox cannot decode is said to load")
        }
        if archive.damage.contains(where: { $0.offset < 0 || $0.offset > bytes.count }) { fatalError("damage outside the file") }
        for tab in archive.tabs {
            if let id = tab.screenshotUUID, !FirefoxUUID.isValid(id) || id != id.uppercased() {
                fatalError("a screenshot UUID that is none")
            }
            let history = tab.history(time: .null)
            if history.items.count != tab.urls.count
                || (tab.urls.isEmpty ? history.lastCommittedIndex != -1 : history.lastCommittedItem == nil)
            {
                fatalError("a history whose current item is not one of its URLs")
            }
        }
        // Both migrations write a window Firefox loads, with every tab read, each id a UUID.
        var count = 0
        for keeping in [false, true] {
            let window = archive.migratedWindow(
                id: "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B", migrationTime: 700_000_000, keepingLastUsedTime: keeping
            ) {
                count += 1
                let digits = String(count)
                return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
            }
            let file = FirefoxWindowDecoder.decode(FirefoxWindowEncoder.encode(window))
            guard file.loadsInFirefox, let read = file.window, read.tabs.count == archive.tabs.count else {
                fatalError("a migrated window Firefox does not load: \(file.refusals.first.map(\.description) ?? "damaged")")
            }
        }
    }
}

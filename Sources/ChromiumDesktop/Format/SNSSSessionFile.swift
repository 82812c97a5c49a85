import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// One Chromium desktop session file decoded: its records, and for the session command set its
/// windows as Chrome restores them and as salvage recovers them.
public struct SNSSSessionFile: Sendable {
    public var type: ChromiumDesktopLayout.FileType
    public var file: SNSSFile
    /// Chrome's replay (nil when the records are not plain, or for a `Tabs_` file).
    public var chrome: SNSSReplay?
    /// Salvage's replay: every record, past damage and bad commands.
    public var salvage: SNSSReplay?
    /// The product whose numbering of commands the file was read with: the one the profile names,
    /// or the one its records show (nil: neither says, and it is read as Chromium's).
    public var product: ChromiumProduct?

    /// How the file numbers its commands.
    public var dialect: SNSSDialect { product?.dialect ?? .chromium }

    /// `decode` of bytes held in an array.
    public static func decode(
        _ bytes: [UInt8], type: ChromiumDesktopLayout.FileType, product: ChromiumProduct? = nil
    ) -> SNSSSessionFile {
        decode(FileBytes(bytes), type: type, product: product)
    }

    /// Reads `bytes` as a file of `type` written by `product`. When the profile does not say which
    /// product wrote it and Chromium's reading stops at a command, the records are asked (ids
    /// only one product writes) and the file is read again as that product reads it.
    public static func decode(_ bytes: FileBytes, type: ChromiumDesktopLayout.FileType, product: ChromiumProduct? = nil) -> SNSSSessionFile
    {
        guard type.commands == .session else {
            var decoded = SNSSSessionFile(type: type, file: SNSSFile.read(bytes, commands: type.commands))
            decoded.product = product
            return decoded
        }
        var decoded = decodeSession(bytes, type: type, product: product)
        if product == nil, decoded.chrome?.stops.isEmpty == false,
            let shown = ChromiumProduct.fromRecords(decoded.file.records.lazy.filter { !$0.salvaged }.map(\.id)), !shown.dialect.isChromium
        {
            decoded = decodeSession(bytes, type: type, product: shown)
        }
        return decoded
    }

    /// Reads `bytes` as a session command file of `type` in `product`'s numbering.
    private static func decodeSession(
        _ bytes: FileBytes, type: ChromiumDesktopLayout.FileType, product: ChromiumProduct?
    ) -> SNSSSessionFile {
        // The app session service keeps app windows; the session service, normal and popup ones.
        let read = SNSSReplay.read(bytes, windowTypes: type == .apps ? [2, 4] : [0, 1], dialect: product?.dialect ?? .chromium)
        var decoded = SNSSSessionFile(type: type, file: read.file)
        decoded.product = product
        guard case .plain = read.file.header else { return decoded }
        (decoded.chrome, decoded.salvage) = (read.chrome, read.salvage)
        return decoded
    }

    /// Whether Chrome can take the file as the last session: a header it does not read (then it
    /// restores nothing from it), or version 3 with the marker before any damage.
    public var usableForLastSession: Bool {
        guard case .plain(let version) = file.header, version == 3 else { return true }
        return file.markerIndex != nil
    }

    /// Whether Chrome reads records from it at all: version 3 (the newest Chromium refuses 1).
    public var readByChrome: Bool { file.header == .plain(version: 3) }

    /// For a `Tabs_` file, one session of no open tab holding its closed tabs and windows.
    /// Otherwise the windows as model sessions named `<file>#<n>`, from salvage's replay: tabs in visual
    /// order, each its selected navigation's title and URL, pinned and grouped as the file says;
    /// a tab that only salvage recovers is marked `salvaged`.
    public func sessions(file name: String, history: Bool) -> [Session] {
        if type == .tabs, case .plain = file.header {
            let closed = SNSSTabRestore.read(file)
            return closed.closedTabs.isEmpty && closed.closedWindows.isEmpty ? [] : [closed.session(name: name, history: history)]
        }
        guard let salvage else { return [] }
        let chromeTabs = Set(chrome?.windows.flatMap { $0.tabs.map(\.id) } ?? [])
        return salvage.windows.enumerated().map { number, window in
            var tabs: [Tab] = []
            tabs.reserveCapacity(window.tabs.count)
            for replayed in window.tabs {
                let selected = replayed.navigations.isEmpty ? nil : replayed.navigations[replayed.selectedPosition]
                let monotonic = ChromiumClock.isTimeTicks(lastActive: replayed.lastActive)
                var tab = Tab(
                    id: replayed.id, title: selected?.title ?? "", url: selected?.url ?? "",
                    lastActiveTime: monotonic ? .null : Timestamp(microseconds: replayed.lastActive),
                    navigationItemCount: Int32(clamping: replayed.navigations.count), pinned: replayed.pinned)
                if monotonic { tab.lastActiveSinceBoot = replayed.lastActive }
                if replayed.salvaged || !chromeTabs.contains(replayed.id) { tab.salvaged = true }
                if history {
                    tab.history = TabHistory(
                        lastCommittedIndex: Int32(clamping: replayed.selectedPosition),
                        items: replayed.navigations.map {
                            NavigationItem(url: $0.url, title: $0.title, timestamp: Timestamp(microseconds: $0.timestamp))
                        })
                }
                tabs.append(tab)
            }
            var pinned: Int32 = 0
            for tab in tabs {
                guard tab.pinned else { break }
                pinned += 1
            }
            return Session(
                id: "\(name)#\(number + 1)", format: .snss, activeIndex: tabs.isEmpty ? -1 : Int32(window.selectedPosition),
                pinnedCount: pinned, tabs: tabs, groups: groups(of: window, in: salvage))
        }
    }

    /// The window's tab groups over the runs of adjacent tabs that name them.
    private func groups(of window: SNSSReplay.Window, in replay: SNSSReplay) -> [TabGroup] {
        var groups: [TabGroup] = []
        var index = 0
        while index < window.tabs.count {
            guard let token = window.tabs[index].group else {
                index += 1
                continue
            }
            var end = index + 1
            while end < window.tabs.count, window.tabs[end].group == token { end += 1 }
            let metadata = replay.groups[token]
            groups.append(
                TabGroup(
                    start: Int32(clamping: index), count: Int32(clamping: end - index), title: metadata?.title ?? "",
                    color: TabGroupColor(rawValue: Int32(clamping: metadata?.color ?? 0)), collapsed: metadata?.collapsed ?? false,
                    id: TabGroupID(high: token.high, low: token.low)))
            index = end
        }
        return groups
    }
}

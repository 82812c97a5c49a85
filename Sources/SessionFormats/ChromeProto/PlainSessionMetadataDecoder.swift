import SessionModel

/// Decodes a session_metadata.pb of the plain shape Chrome writes straight into a `Session`,
/// without building protobuf message objects; nil for anything else, which then goes to swift-protobuf.
///
/// "Plain" has the meaning of `PlainTabDataDecoder`: known fields only, each singular field at
/// most once, one-byte tags of the schema's wire types, lengths within their messages, valid
/// UTF-8. A test holds this decoder and swift-protobuf to the same result on such bytes.
enum PlainSessionMetadataDecoder {
    /// The session in `bytes`, or nil when they are not of the plain shape.
    static func decode(_ bytes: [UInt8], id: SessionID, incognito: Bool) -> Session? {
        bytes.withUnsafeBytes { raw in
            var reader = PlainWireReader(raw, end: raw.count)
            return reader.webStateList(id: id, incognito: incognito)
        }
    }
}

extension PlainWireReader {
    /// `WebStateListStorage`: items = 1 (repeated), active_index = 2, pinned_item_count = 3, groups = 4 (repeated).
    mutating func webStateList(id: SessionID, incognito: Bool) -> Session? {
        var session = Session(id: id, incognito: incognito, format: .optimized, activeIndex: 0, pinnedCount: 0)
        // The list is sized once: a list of millions of tabs is not grown (and copied) by doubling.
        var counter = self
        session.tabs.reserveCapacity(counter.countItems())
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag() else { return nil }
            switch tag {
            case 0x0a:
                guard var reader = message(), let tab = reader.listItem() else { return nil }
                session.tabs.append(tab)
            case 0x10:
                guard PlainWireReader.first(2, &seen), let value = varint() else { return nil }
                session.activeIndex = Int32(truncatingIfNeeded: value)
            case 0x18:
                guard PlainWireReader.first(3, &seen), let value = varint() else { return nil }
                session.pinnedCount = Int32(truncatingIfNeeded: value)
            case 0x22:
                guard var reader = message(), let group = reader.group() else { return nil }
                session.groups.append(group)
            default: return nil
            }
        }
        let pinned = Int(session.pinnedCount)
        for index in session.tabs.indices { session.tabs[index].pinned = index < pinned }
        return session
    }

    /// The number of list items (field 1) among the top-level fields, up to the first that is not
    /// of the plain shape.
    mutating func countItems() -> Int {
        var count = 0
        while !atEnd, let tag = tag() {
            switch tag {
            case 0x0a, 0x22:
                guard body() != nil else { return count }
                if tag == 0x0a { count += 1 }
            case 0x10, 0x18:
                guard varint() != nil else { return count }
            default: return count
            }
        }
        return count
    }

    /// `WebStateListItemStorage`: identifier = 1, opener = 2, metadata = 3.
    mutating func listItem() -> Tab? {
        var tab = Tab(id: 0)
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x08:
                guard let value = varint() else { return nil }
                tab.id = Int32(truncatingIfNeeded: value)
            case 0x12:
                guard var reader = message(), let (index, navigation) = reader.int32Pair() else { return nil }
                tab.opener = Opener(index: index, navigationIndex: navigation)
            case 0x1a: guard var reader = message(), reader.itemMetadata(into: &tab) else { return nil }
            default: return nil
            }
        }
        return tab
    }

    /// `WebStateMetadataStorage`: creation_time = 1, last_active_time = 2, active_page = 3, navigation_item_count = 4.
    mutating func itemMetadata(into tab: inout Tab) -> Bool {
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return false }
            switch tag {
            case 0x0a:
                guard var reader = message(), let value = reader.timestamp() else { return false }
                tab.creationTime = value
            case 0x12:
                guard var reader = message(), let value = reader.timestamp() else { return false }
                tab.lastActiveTime = value
            case 0x1a: guard var reader = message(), reader.pageMetadata(into: &tab) else { return false }
            case 0x20:
                guard let value = varint() else { return false }
                tab.navigationItemCount = Int32(truncatingIfNeeded: value)
            default: return false
            }
        }
        return true
    }

    /// `PageMetadataStorage`: page_title = 1, page_url = 2.
    mutating func pageMetadata(into tab: inout Tab) -> Bool {
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return false }
            switch tag {
            case 0x0a:
                guard let value = string() else { return false }
                tab.title = value
            case 0x12:
                guard let value = string() else { return false }
                tab.url = value
            default: return false
            }
        }
        return true
    }

    /// Two int32 fields 1 and 2: `OpenerStorage` (index, navigation_index) and `RangeIndex` (start, count).
    mutating func int32Pair() -> (Int32, Int32)? {
        var values: (Int32, Int32) = (0, 0)
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen), let value = varint() else { return nil }
            switch tag {
            case 0x08: values.0 = Int32(truncatingIfNeeded: value)
            case 0x10: values.1 = Int32(truncatingIfNeeded: value)
            default: return nil
            }
        }
        return values
    }

    /// `TabGroupStorage`: range = 1, title = 2, color = 3, collapsed = 4, tab_group_id = 5 (`TabGroupId`: low = 1, high = 2).
    mutating func group() -> TabGroup? {
        var group = TabGroup(start: 0, count: 0, title: "", color: TabGroupColor(rawValue: 0), collapsed: false, id: nil)
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x0a:
                guard var reader = message(), let (start, count) = reader.int32Pair() else { return nil }
                (group.start, group.count) = (start, count)
            case 0x12:
                guard let value = string() else { return nil }
                group.title = value
            case 0x18:
                guard let value = varint() else { return nil }
                group.color = TabGroupColor(rawValue: Int32(truncatingIfNeeded: value))
            case 0x20:
                guard let value = varint() else { return nil }
                group.collapsed = value != 0
            case 0x2a:
                guard var reader = message() else { return nil }
                var words: (low: UInt64, high: UInt64) = (0, 0)
                var wordsSeen: UInt16 = 0
                while !reader.atEnd {
                    guard let inner = reader.tag(), PlainWireReader.first(inner >> 3, &wordsSeen), let value = reader.varint() else {
                        return nil
                    }
                    switch inner {
                    case 0x08: words.low = value
                    case 0x10: words.high = value
                    default: return nil
                    }
                }
                group.id = TabGroupID(high: words.high, low: words.low)
            default: return nil
            }
        }
        return group
    }
}

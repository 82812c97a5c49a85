import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// How one product of the Chromium family numbers the commands of its `Session_` files against
/// Chromium's own (docs/chromium-desktop-format.md, "Products"): ids it gives another meaning
/// (Vivaldi shifts every id from 21 up by two), and commands of its own, which its browser reads
/// and Chromium does not. A command of the product's own is kept with what it belongs to and
/// written back by a rewrite, never applied and never a finding; an id no dialect knows stays
/// unknown, where replay stops as the browser does.
public struct SNSSDialect: Sendable, Equatable {
    /// A command the product writes that Chromium does not.
    public struct OwnCommand: Sendable, Equatable {
        /// What its first field (after a pickle's header) names, so that a rewrite writes it with it.
        public enum Subject: Sendable, Equatable {
            case window
            case tab
            /// Not known: kept with the file, written after the windows.
            case file
        }

        public var subject: Subject
        public var pickled: Bool
    }

    /// What a record's id means in this dialect.
    enum Meaning: Equatable {
        /// Chromium's command of this id.
        case chromium(UInt8)
        /// The product's own command.
        case own(OwnCommand)
    }

    /// Ids of the file that mean Chromium's command of another id.
    let renumbered: [UInt8: UInt8]
    /// Chromium's ids as the file writes them (the inverse of `renumbered`).
    let written: [UInt8: UInt8]
    /// The product's own commands by id.
    let own: [UInt8: OwnCommand]
    /// Own commands sharing an id with one of Chromium's, told apart by the contents' size.
    let ownBySize: [UInt8: (size: Int, command: OwnCommand)]
    /// True for Chromium's own numbering (nothing to translate: the reading's fast path).
    public let isChromium: Bool
    /// What each of the 256 ids means, looked up by index for every record of a file (the
    /// dictionaries above, hashed per record, cost a product's profile a tenth of its read).
    private let meanings: [Meaning]
    /// For each id, the own command it is when its contents have that size (`ownBySize`).
    private let meaningsBySize: [(size: Int, command: OwnCommand)?]

    public static func == (lhs: SNSSDialect, rhs: SNSSDialect) -> Bool {
        lhs.renumbered == rhs.renumbered && lhs.own == rhs.own && lhs.ownBySize.keys.sorted() == rhs.ownBySize.keys.sorted()
    }

    init(renumbered: [UInt8: UInt8] = [:], own: [UInt8: OwnCommand] = [:], ownBySize: [UInt8: (size: Int, command: OwnCommand)] = [:]) {
        self.renumbered = renumbered
        self.written = Dictionary(uniqueKeysWithValues: renumbered.map { ($0.value, $0.key) })
        self.own = own
        self.ownBySize = ownBySize
        isChromium = renumbered.isEmpty && own.isEmpty && ownBySize.isEmpty
        meanings = (0...255).map { value in
            let id = UInt8(value)
            return own[id].map(Meaning.own) ?? .chromium(renumbered[id] ?? id)
        }
        meaningsBySize = (0...255).map { ownBySize[UInt8($0)] }
    }

    /// Chromium's numbering (Chrome, Chromium, Brave, which writes its data through Chromium's
    /// extra-data commands 33 and 34, and Opera, of whose own commands nothing is public).
    public static let chromium = SNSSDialect()

    /// Microsoft Edge (its code is not public): inferred from session files Edge 141 wrote and
    /// restored (Fixtures/chromium-desktop/real): 131 (a pickle naming a window), 132 (8 bytes:
    /// a window id and an int32), 34 of 8 bytes (a window id and an int32, where Chromium's 34 is
    /// a pickle), and 44 and 50, seen in other Edge files as a pickle of an id and a string.
    public static let edge = SNSSDialect(
        own: [
            131: OwnCommand(subject: .window, pickled: true), 132: OwnCommand(subject: .window, pickled: false),
            44: OwnCommand(subject: .file, pickled: true), 50: OwnCommand(subject: .file, pickled: true)
        ],
        ownBySize: [34: (8, OwnCommand(subject: .window, pickled: false))])

    /// Vivaldi (its Chromium is published: components/sessions/core/session_service_commands.cc,
    /// "VIVALDI SPECIFIC below"): 21 and 22 are its tab's and window's extra data (a pickle of an
    /// id and a JSON string), Chromium's ids from 21 up are written two higher (21 to 34 as 23 to
    /// 36 in its list; 22 and 26, obsolete, as 24 and 28, which it therefore does not know; 35 to
    /// 37 as 37 to 39 by the same rule, inferred), and 200 to 202 are its page action overrides
    /// and thumbnails.
    public static let vivaldi = SNSSDialect(
        renumbered: [
            23: 21, 24: 22, 25: 23, 26: 24, 27: 25, 28: 26, 29: 27, 30: 28, 31: 29, 32: 30, 33: 31, 34: 32, 35: 33, 36: 34, 37: 35, 38: 36,
            39: 37
        ],
        own: [
            21: OwnCommand(subject: .tab, pickled: true), 22: OwnCommand(subject: .window, pickled: true),
            200: OwnCommand(subject: .file, pickled: true), 201: OwnCommand(subject: .file, pickled: true),
            202: OwnCommand(subject: .file, pickled: true)
        ])

    /// What the record `id` with contents of `count` bytes means.
    func meaning(of id: UInt8, count: Int) -> Meaning {
        if isChromium { return .chromium(id) }
        if let bySize = meaningsBySize[Int(id)], bySize.size == count { return .own(bySize.command) }
        return meanings[Int(id)]
    }

    /// The id the file writes Chromium's command `id` as.
    public func fileID(_ id: UInt8) -> UInt8 { isChromium ? id : written[id] ?? id }
}

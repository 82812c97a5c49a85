import SessionModel

/// Parses the workload text format: one event per line, `#` comments, blank lines ignored.
///
/// ```
/// launch
/// open t1 https://example.org/ "Example"          # in the main window
/// open t2 https://example.org/b "B" window=second
/// open p1 https://private.example/ "Secret" incognito
/// navigate t1 https://example.org/next "Next"
/// move t2 0 | activate t1 | pin t1 | unpin t1 | close t2
/// group t1 t2 title="Reading" color=blue
/// close-all-incognito | background | disconnect second | wait 2.5
/// crash | crash-during-restore | shutdown | launch
/// repeat 100 open t{i} https://example.org/{i} "Page {i}"
/// ```
///
/// `repeat N EVENT` writes EVENT N times with `{i}` replaced by 1...N. A first line
/// `from NAME` starts the workload from one of the damaged profiles `DamagedProfile` makes.
public enum WorkloadParser {
    /// The most events a workload may expand to (a few `repeat 100000` lines would otherwise take
    /// gigabytes before anything runs).
    public static let maxEvents = 1_000_000

    /// Parses a workload's text; `maxEvents` bounds what its `repeat` lines may expand to.
    public static func parse(_ text: String, name: String, maxEvents: Int = maxEvents) throws(SimulatorError) -> Workload {
        var steps: [Workload.Step] = []
        var start: DamagedProfile?
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            var words = try self.words(String(rawLine), name: name, line: line)
            guard !words.isEmpty else { continue }
            if words[0].text == "from" && !words[0].quoted {
                let names = DamagedProfile.allCases.map(\.rawValue).joined(separator: ", ")
                guard steps.isEmpty, start == nil else {
                    throw .invalidWorkload(name: name, line: line, reason: "from comes once, before the first event")
                }
                guard words.count == 2, let profile = DamagedProfile(rawValue: words[1].text) else {
                    throw .invalidWorkload(name: name, line: line, reason: "from takes one of: \(names)")
                }
                start = profile
                continue
            }
            var count = 1
            if words[0].text == "repeat" && !words[0].quoted {
                guard words.count >= 3, let times = Int(words[1].text), times >= 1, times <= 100_000 else {
                    throw .invalidWorkload(name: name, line: line, reason: "repeat needs a count (1 to 100000) and an event")
                }
                count = times
                words.removeFirst(2)
            }
            guard steps.count + count <= maxEvents else {
                throw .invalidWorkload(name: name, line: line, reason: "the workload expands to more than \(maxEvents) events")
            }
            for number in 1...count {
                let expanded =
                    count == 1 && !rawLine.contains("{i}")
                    ? words
                    : words.map { Word(text: $0.text.replacingOccurrences(of: "{i}", with: String(number)), quoted: $0.quoted) }
                let event = try parseEvent(expanded, name: name, line: line)
                steps.append(Workload.Step(event: event, text: expanded.map { display($0.text) }.joined(separator: " "), line: line))
            }
        }
        guard !steps.isEmpty else { throw .invalidWorkload(name: name, line: 0, reason: "no events") }
        guard steps.first?.event == .launch else {
            throw .invalidWorkload(name: name, line: steps[0].line, reason: "a workload starts with launch")
        }
        return Workload(name: name, steps: steps, start: start)
    }

    private static func display(_ word: String) -> String {
        word.isEmpty || word.contains(" ") || word.contains("\"") ? "\"" + word.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : word
    }

    /// Splits a line into words: whitespace-separated, `"..."` quoted (with `\"` and `\\`), `#` to the end is a comment.
    static func tokens(_ line: String, name: String, line number: Int) throws(SimulatorError) -> [String] {
        try words(line, name: name, line: number).map(\.text)
    }

    /// A word of a line; `quoted` when it began with a quote (then it is never a `key=value` option).
    struct Word {
        var text: String
        var quoted: Bool
    }

    static func words(_ line: String, name: String, line number: Int) throws(SimulatorError) -> [Word] {
        var words: [Word] = []
        var current = ""
        var startsQuoted = false
        var inWord = false
        var quoted = false
        var escaped = false
        for char in line {
            if quoted {
                if escaped {
                    current.append(char)
                    escaped = false
                } else if char == "\\" {
                    escaped = true
                } else if char == "\"" {
                    quoted = false
                } else {
                    current.append(char)
                }
                continue
            }
            if char == "#" { break }
            if char == " " || char == "\t" || char == "\r" {
                if inWord {
                    words.append(Word(text: current, quoted: startsQuoted))
                    current = ""
                    inWord = false
                }
            } else if char == "\"" {
                if !inWord { startsQuoted = true }
                quoted = true
                inWord = true
            } else {
                if !inWord { startsQuoted = false }
                current.append(char)
                inWord = true
            }
        }
        if quoted { throw .invalidWorkload(name: name, line: number, reason: "unterminated quoted string") }
        if inWord { words.append(Word(text: current, quoted: startsQuoted)) }
        return words
    }

    private static func parseEvent(_ words: [Word], name: String, line: Int) throws(SimulatorError) -> WorkloadEvent {
        func fail(_ reason: String) -> SimulatorError { .invalidWorkload(name: name, line: line, reason: reason) }
        let verb = words[0].text
        var positional: [String] = []
        var options: [String: String] = [:]
        var flags: Set<String> = []
        for item in words.dropFirst() {
            let word = item.text
            if !item.quoted, let equals = word.firstIndex(of: "="), !word.contains("://"),
                word[..<equals].allSatisfy({ $0.isLetter }), !word[..<equals].isEmpty
            {
                let key = String(word[..<equals])
                guard ["window", "title", "color"].contains(key) else { throw fail("unknown option '\(key)='") }
                options[key] = String(word[word.index(after: equals)...])
            } else if word == "incognito" && !item.quoted {
                flags.insert(word)
            } else {
                positional.append(word)
            }
        }
        func label(_ index: Int) throws(SimulatorError) -> String {
            guard positional.indices.contains(index), !positional[index].isEmpty else { throw fail("\(verb) needs a tab name") }
            return positional[index]
        }
        func expect(_ range: ClosedRange<Int>) throws(SimulatorError) {
            guard range.contains(positional.count) else {
                throw fail(
                    "\(verb) takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)") argument(s), not \(positional.count)"
                )
            }
        }
        switch verb {
        case "launch":
            try expect(0...0)
            return .launch
        case "open", "open-incognito":
            try expect(2...3)
            let incognito = verb == "open-incognito" || flags.contains("incognito")
            return .open(
                tab: try label(0), url: positional[1], title: positional.count > 2 ? positional[2] : "",
                window: options["window"] ?? WorkloadEvent.mainWindow, incognito: incognito)
        case "navigate":
            try expect(2...3)
            return .navigate(tab: try label(0), url: positional[1], title: positional.count > 2 ? positional[2] : "")
        case "close":
            try expect(1...1)
            return .close(tab: try label(0))
        case "move":
            try expect(2...2)
            guard let index = Int(positional[1]), index >= 0 else { throw fail("move needs a tab name and an index") }
            return .move(tab: try label(0), to: index)
        case "activate":
            try expect(1...1)
            return .activate(tab: try label(0))
        case "pin", "unpin":
            try expect(1...1)
            return .pin(tab: try label(0), pinned: verb == "pin")
        case "group":
            var tabs = positional
            var color = TabGroupColor.grey
            if let last = tabs.last, let known = TabGroupColor.names.firstIndex(of: last), tabs.count > 1 {
                color = TabGroupColor(rawValue: Int32(known))
                tabs.removeLast()
            }
            if let named = options["color"] {
                guard let known = TabGroupColor.names.firstIndex(of: named) else { throw fail("unknown group color '\(named)'") }
                color = TabGroupColor(rawValue: Int32(known))
            }
            let title = options["title"] ?? ""
            guard !tabs.isEmpty else { throw fail("group needs at least one tab name") }
            return .group(tabs: tabs, title: title, color: color)
        case "close-all-incognito":
            try expect(0...0)
            return .closeAllIncognito
        case "background":
            try expect(0...0)
            return .background
        case "disconnect":
            try expect(0...1)
            return .disconnect(window: positional.first ?? WorkloadEvent.mainWindow)
        case "wait":
            try expect(0...1)
            guard let seconds = positional.isEmpty ? 2.5 : Double(positional[0]), seconds >= 0, seconds <= 86_400 else {
                throw fail("wait takes a number of seconds")
            }
            return .wait(seconds: seconds)
        case "crash":
            try expect(0...0)
            return .crash
        case "crash-during-restore":
            try expect(0...0)
            return .crashDuringRestore
        case "shutdown":
            try expect(0...0)
            return .shutdown
        default: throw fail("unknown event '\(verb)'")
        }
    }
}

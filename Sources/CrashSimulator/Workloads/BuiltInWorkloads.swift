/// The workloads `crash-test` knows by name (their text is in the workload format).
public enum BuiltInWorkloads {
    /// Names, in the order `--help` lists them.
    public static let names = [
        "small", "typical", "1000-tabs", "10000-tabs", "incognito", "crash-loop", "restore-crashes", "shortened-sessions",
        "refused-sessions", "interrupted-repair", "desktop-resets"
    ]

    /// The default workload.
    public static let defaultName = "typical"

    /// The text of a built-in workload, or nil.
    public static func text(_ name: String) -> String? {
        switch name {
        case "small": return small
        case "typical": return typical
        case "1000-tabs": return thousandTabs
        case "10000-tabs": return tenThousandTabs
        case "incognito": return incognito
        case "crash-loop": return crashLoop
        case "restore-crashes": return restoreCrashes
        case "shortened-sessions": return shortenedSessions
        case "refused-sessions": return refusedSessions
        case "interrupted-repair": return interruptedRepair
        case "desktop-resets": return desktopResets
        default: return nil
        }
    }

    /// A built-in workload parsed.
    public static func workload(_ name: String) throws(SimulatorError) -> Workload? {
        guard let text = text(name) else { return nil }
        return try WorkloadParser.parse(text, name: name)
    }

    static let small = """
        # Three tabs, one navigation, one close: the smallest useful run.
        launch
        open t1 https://example.org/ "Example"
        open t2 https://news.example.com/today "Today's news"
        navigate t1 https://example.org/about "About"
        wait
        open t3 https://docs.example.net/guide "Guide"
        close t2
        wait
        background
        """

    static let typical = """
        # A day in the browser: two windows, pinned and grouped tabs, moves, incognito tabs closed
        # together, a crash and a relaunch, a window disconnecting, a clean exit and a relaunch.
        launch
        open t1 https://mail.example.com/inbox "Inbox"
        open t2 https://news.example.com/ "News"
        open t3 https://docs.example.net/guide "Guide"
        wait
        navigate t2 https://news.example.com/world "World news"
        navigate t3 https://docs.example.net/guide/install "Installing"
        pin t1
        wait 1
        open t4 https://shop.example.org/cart "Cart"
        wait 2
        open t5 https://video.example.com/watch?v=1 "A video" window=second
        open t6 https://maps.example.com/ "Maps" window=second
        wait
        group t3 t4 title="Reading" color=blue
        move t2 3
        activate t3
        wait
        open p1 https://private.example/secret-search "Private search results" incognito
        open p2 https://private.example/diary "My private diary" incognito
        wait
        navigate p1 https://private.example/secret-search?page=2 "Private search, page 2"
        background
        close-all-incognito
        close t4
        navigate t5 https://video.example.com/watch?v=2 "Another video"
        wait
        crash
        launch
        navigate t1 https://mail.example.com/message/42 "Message 42"
        open t7 https://calendar.example.com/ "Calendar"
        unpin t1
        wait
        disconnect second
        close t3
        open t8 https://example.org/weather "Weather"
        background
        navigate t8 https://example.org/weather/tomorrow "Tomorrow's weather"
        shutdown
        launch
        navigate t8 https://example.org/weather/tomorrow "Tomorrow"
        wait
        """

    static let thousandTabs = oneLargeWindow(tabs: 1000, "A thousand tabs in one window: large lists, many tab directories, a few changes.")
    static let tenThousandTabs = oneLargeWindow(
        tabs: 10_000, "Ten thousand tabs in one window: the list and the set-asides of a heavy user's profile.")

    /// One window of `tabs` tabs, saved, then ten navigations and five closes, saved, and the app backgrounded.
    private static func oneLargeWindow(tabs: Int, _ description: String) -> String {
        """
        # \(description)
        launch
        repeat \(tabs) open t{i} https://example.org/page/{i} "Page {i}"
        wait
        repeat 10 navigate t{i} https://example.org/page/{i}/next "Next page {i}"
        repeat 5 close t{i}
        wait
        background
        """
    }

    static let incognito = """
        # Incognito tabs closed together, then one closed alone (both remove every incognito file).
        launch
        open t1 https://example.org/ "Example"
        open p1 https://private.example/first-secret "First secret page" incognito
        open p2 https://private.example/second-secret "Second secret page" incognito
        wait
        navigate p1 https://private.example/first-secret/more "More of the first secret"
        background
        close-all-incognito
        open p3 https://private.example/third-secret "Third secret page" incognito
        wait
        close p3
        open t2 https://example.org/after "After incognito"
        wait
        background
        """

    static let shortenedSessions = """
        # Starts from three windows Chrome's loading rules shorten (DamagedProfile): a tab without
        # navigation items, a tab repeating an earlier tab's id, a tab listed without its data.pb.
        # The first launch keeps a copy of each in Backups/ and restores it; a tab opened in two of
        # them makes the saves that rewrite them as restored.
        from shortened-sessions
        launch
        open t1 https://example.org/ "Example"
        open t2 https://example.org/third "Third" window=third
        wait
        background
        """

    static let refusedSessions = """
        # Starts from three windows Chrome refuses to load (DamagedProfile): no session_metadata.pb,
        # an unparsable one, one listing a tab of id 0. The first launch sets each aside to
        # Backups/; a tab opened in the first window's place starts a new session under its id.
        from refused-sessions
        launch
        open t1 https://example.org/ "Example"
        wait
        background
        """

    static let interruptedRepair = """
        # Starts from a sessionctl repair cut short (DamagedProfile): two windows set aside and named
        # by the repair's intent record, one of them with its repaired copy staged. The first
        # launch finishes the one and puts the other back before it restores; a tab opened in each
        # makes the saves that rewrite them.
        from interrupted-repair
        launch
        open t1 https://example.org/ "Example" window=second
        open t2 https://example.org/third "Third" window=third
        wait
        background
        """

    static let restoreCrashes = """
        # Crashes inside restore again and again, from windows Chrome refuses (their set-aside is
        # restore work): a launch, two crashes during restore, the launch whose crash-loop guard
        # sets every session aside, then once more. Every operation of each launch is a crash
        # point, judged by how the next launch counts it.
        from refused-sessions
        launch
        open t1 https://example.org/ "Example"
        wait
        crash
        crash-during-restore
        crash-during-restore
        launch
        open t2 https://example.org/two "Two"
        wait
        crash
        crash-during-restore
        launch
        background
        """

    static let crashLoop = """
        # Crashes while restoring until the crash-loop guard sets the sessions aside.
        launch
        open t1 https://example.org/ "Example"
        open t2 https://example.org/two "Two"
        wait
        crash
        crash-during-restore
        crash-during-restore
        launch
        open t3 https://example.org/three "Three"
        wait
        background
        """

    static let desktopResets = """
        # Desktop browsing busy enough for Chromium's session service to reset its file three
        # times in one run (it resets after 250 commands, and the third reset deletes the first
        # reset's file), then a crash, a relaunch and a clean exit.
        launch
        open t1 https://mail.example.com/inbox "Inbox"
        open t2 https://news.example.com/ "News"
        open t3 https://video.example.com/watch?v=1 "A video" window=second
        wait
        repeat 40 open a{i} https://example.org/a/{i} "A {i}"
        wait
        repeat 40 close a{i}
        navigate t1 https://mail.example.com/message/1 "Message 1"
        wait
        repeat 30 open b{i} https://example.org/b/{i} "B {i}"
        wait
        repeat 30 close b{i}
        repeat 60 open c{i} https://example.org/c/{i} "C {i}"
        wait
        repeat 55 close c{i}
        navigate t2 https://news.example.com/world "World news"
        wait
        crash
        launch
        navigate t1 https://mail.example.com/message/2 "Message 2"
        wait
        shutdown
        """
}

import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

extension WorkloadDriver {
    /// Carries out one workload event.
    func perform(_ event: WorkloadEvent) throws {
        switch event {
        case .launch:
            if restoreCrashes >= SessionService.Options().crashLoopLimit { model.setAsideAll() }
            restoreCrashes = 0
            clock = VirtualClock(start: clock.now)
            let groups = self.groups
            let launched = try SessionService.launch(
                profile: profile, fileSystem: fileSystem, clock: clock,
                options: SessionService.Options(settling: StoreRecoveryRunner.settling, writeProtocol: writeProtocol),
                groupIDs: { groups.next() })
            launched.onSave = { [unowned self] record in
                self.onSave(record)
                self.model.acknowledge()
                if self.runningUntilNextSave {
                    self.runningUntilNextSave = false
                    self.onRunning(false)
                }
            }
            launched.onSaveFailure = { [unowned self] failure in
                if self.failure == nil { self.failure = "save #\(failure.sequence) failed: \(failure.error)" }
            }
            service = launched
            if !launchedBefore {
                launchedBefore = true
                var windows: [String: [String]] = [:]
                for incognito in [false, true] {
                    for browser in launched.profile.state(incognito: incognito).browsers.browsers where browser.tabs.count > 0 {
                        windows[(incognito ? "OTR/" : "") + browser.sessionID] = browser.tabs.tabs.map(\.url)
                    }
                }
                model.adopt(windows)
            }
            onRunning(true)
        case .crash:
            _ = try requireService(event)
            service = nil
            model.crash()
            onRunning(false)
        case .crashDuringRestore:
            restoreCrashes += 1
            guard service == nil else {
                throw SimulatorError.invalidWorkload(
                    name: workloadName, line: 0, reason: "crash-during-restore needs the app not running (crash first)")
            }
            _ = try RecoveryPolicy(
                writer: AtomicWriter(fileSystem: fileSystem, writeProtocol: writeProtocol), profile: profile,
                settling: StoreRecoveryRunner.settling
            )
            .prepareLaunch(now: clock.now)
        case .shutdown:
            // Until the final save is acknowledged a crash is a crash and must be detected; after
            // it, a crash before the clean-exit marker is durable may or may not be noticed.
            let exiting = try requireService(event)
            if exiting.hasUnsavedChanges { runningUntilNextSave = true } else { onRunning(false) }
            try exiting.shutDown()
            if runningUntilNextSave {
                runningUntilNextSave = false
                onRunning(false)
            }
            service = nil
        case .open(let label, let url, let title, let window, let incognito):
            let service = try requireService(event)
            guard labels[label] == nil else {
                throw SimulatorError.invalidWorkload(name: workloadName, line: 0, reason: "the tab name \(label) is already used")
            }
            let sessionID = WorkloadDriver.sessionID(of: window)
            model.open(label, window: (incognito ? "OTR/" : "") + sessionID, url: url)
            let browser = try service.openWindow(sessionID, incognito: incognito)
            let tab = browser.openTab(url: url, title: title)
            labels[label] = tab.id
            note(url, title, incognito: incognito)
        case .navigate(let label, let url, let title):
            let found = try find(label, in: try requireService(event))
            model.navigate(label, to: url)
            found.tab.navigate(to: url, title: title)
            note(url, title, incognito: found.browser.incognito)
        case .close(let label):
            let found = try find(label, in: try requireService(event))
            if model.incognitoLabels == [label] { onLastIncognitoTabClosing() }
            model.close(label)
            found.browser.tabs.close(at: found.index)
        case .move(let label, let index):
            let found = try find(label, in: try requireService(event))
            guard found.browser.tabs.move(from: found.index, to: index) else { throw refused(event) }
        case .activate(let label):
            let found = try find(label, in: try requireService(event))
            guard found.browser.tabs.activate(at: found.index) else { throw refused(event) }
        case .pin(let label, let pinned):
            let found = try find(label, in: try requireService(event))
            guard found.browser.tabs.setPinned(pinned, at: found.index) != nil else { throw refused(event) }
        case .group(let tabLabels, let title, let color):
            let service = try requireService(event)
            var indices: [Int] = []
            var browser: Browser?
            for label in tabLabels {
                let found = try find(label, in: service)
                guard browser == nil || browser === found.browser else { throw refused(event) }
                browser = found.browser
                indices.append(found.index)
            }
            guard let browser, let low = indices.min(), let high = indices.max(), high - low + 1 == indices.count,
                browser.tabs.group(low..<(high + 1), title: title, color: color) != nil
            else { throw refused(event) }
        case .closeAllIncognito:
            let service = try requireService(event)
            if !model.incognitoLabels.isEmpty { onLastIncognitoTabClosing() }
            model.closeAllIncognito()
            service.profile.closeAllIncognitoTabs()
        case .background:
            try requireService(event).sceneDidEnterBackground()
        case .disconnect(let window):
            let service = try requireService(event)
            guard let browser = service.profile.browser(for: WorkloadDriver.sessionID(of: window), incognito: false) else {
                throw SimulatorError.invalidWorkload(name: workloadName, line: 0, reason: "no open window named \(window)")
            }
            service.sceneDidDisconnect(browser)
        case .wait(let seconds):
            _ = try requireService(event)
            clock.advance(by: .microseconds(Int64(seconds * 1_000_000)))
        }
    }
}

#!/usr/bin/env python3
"""Writes one Chromium desktop session file (Sessions/Session_<time>) of 10,000 open tabs in 20
windows, deterministically, with the SNSS encoder of Fixtures/chromium-desktop/snss.py: every
window's full state as Chrome's reset writes it (about 3 navigations a tab with URLs, titles and
page states of realistic lengths, pinned tabs, tab groups, last active times), the marker, then
commands appended as a browsing session adds them (new navigations, tabs opened and closed).
Prints what a reader should find as one line of JSON on stderr.

Usage: Benchmarks/make-snss.py OUT_PATH   (a directory gets Session_13397000000000000 inside it)
"""
import hashlib
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures",
                                "chromium-desktop"))
import snss  # noqa: E402

WINDOWS = 20
TABS = 10000
T0 = 13397000000000000
NAME = "Session_%d" % T0

HOSTS = ["www.wikipedia.org", "github.com", "news.ycombinator.com", "www.youtube.com",
         "docs.python.org", "developer.mozilla.org", "stackoverflow.com", "www.nytimes.com",
         "mail.google.com", "www.reddit.com", "arxiv.org", "www.bbc.co.uk", "en.cppreference.com",
         "swift.org", "forums.swift.org", "www.amazon.com", "maps.google.com", "chromium.org"]
WORDS = ("session restore window tab history navigation profile chromium snapshot marker record "
         "pickle reader writer crash recovery archive benchmark format command group pinned "
         "title browser network cache storage document layout render").split()


def rand(*key) -> int:
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little")


def url(n: int, k: int) -> str:
    host = HOSTS[rand("host", n) % len(HOSTS)]
    path = "/".join(WORDS[rand("path", n, k, i) % len(WORDS)] for i in range(2 + rand(n, k) % 4))
    query = "" if rand("q", n, k) % 3 else "?id=%d&ref=%s" % (rand("id", n, k) % 10 ** 9,
                                                            WORDS[rand("r", n, k) % len(WORDS)])
    return "https://%s/%s/%d-%d%s" % (host, path, n, k, query)


def title(n: int, k: int) -> str:
    words = [WORDS[rand("t", n, k, i) % len(WORDS)] for i in range(4 + rand("tl", n, k) % 8)]
    text = " ".join(words).capitalize()
    return text + (" \u2014 Wikip\u00e9dia" if rand("u", n, k) % 5 == 0 else " | Site")


def navigation(n: int, k: int) -> snss.Navigation:
    state_size = 200 + rand("ps", n, k) % 1300
    state = hashlib.sha256(b"%d-%d" % (n, k)).digest() * (state_size // 32 + 1)
    return snss.Navigation(index=k, url=url(n, k), title=title(n, k), page_state=state[:state_size],
                           referrer_url=url(n, k - 1) if k else "",
                           timestamp=T0 - 86400000000 + n * 1000000 + k * 1000)


def main():
    out = sys.argv[1]
    if os.path.isdir(out):
        out = os.path.join(out, NAME)
    windows = []
    tab_id = 5000
    n = 0
    per_window = TABS // WINDOWS
    for w in range(WINDOWS):
        window_id = 100 + w
        groups = []
        tabs = []
        for i in range(per_window):
            count = 1 + rand("navs", n) % 5          # 1 to 5, 3 on average
            selected = count - 1 if rand("sel", n) % 4 else rand("back", n) % count
            group = None
            if i % 50 < 6 and i >= 10:                # a group of 6 tabs in every 50
                token = (rand("g", w, i // 50), rand("gl", w, i // 50))
                if not groups or groups[-1].token != token:
                    groups.append(snss.Group(token, " ".join(
                        WORDS[rand("gt", w, i // 50, j) % len(WORDS)] for j in range(2)),
                        rand("gc", w, i // 50) % 9))
                group = token
            tabs.append(snss.Tab(id=tab_id, navigations=[navigation(n, k) for k in range(count)],
                                 current=selected, pinned=i < 3, group=group,
                                 last_active=T0 - 3600000000 + n * 1000,
                                 storage_id="%08x-%04x-4%03x-8%03x-%012x" % (
                                     rand("s", n) % 2 ** 32, w, i % 4096, n % 4096, tab_id)))
            tab_id += 1
            n += 1
        windows.append(snss.Window(window_id, tabs, selected=rand("ws", w) % per_window,
                                   bounds=(40 * w, 30 * w, 1440, 900), groups=groups,
                                   user_title="Window %d" % w if w % 4 == 0 else ""))

    # After the marker: new navigations in existing tabs (a forward step that prunes nothing),
    # and tabs opened and closed again.
    appended = []
    navigations = sum(len(t.navigations) for win in windows for t in win.tabs)
    for j in range(600):
        win = windows[rand("aw", j) % WINDOWS]
        t = win.tabs[rand("at", j) % per_window]
        k = t.navigations[-1].index + 1
        nav = navigation(100000 + j, k)
        appended.append(snss.update_tab_navigation(t.id, nav))
        appended.append(snss.set_selected_navigation_index(t.id, k))
        t.navigations.append(nav)
        navigations += 1
    for j in range(150):
        win = windows[rand("cw", j) % WINDOWS]
        closed = tab_id + j
        appended += [snss.set_tab_window(win.id, closed),
                     snss.set_tab_index_in_window(closed, per_window),
                     snss.update_tab_navigation(closed, navigation(200000 + j, 0)),
                     snss.set_selected_navigation_index(closed, 0),
                     snss.tab_closed(closed, T0 - 1000000 + j)]
    appended.append(snss.set_active_window(windows[0].id))

    with open(out, "wb") as f:
        f.write(snss.session_file(windows, appended))
    print(json.dumps({"windows": WINDOWS, "tabs": TABS, "navigations": navigations}),
          file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a Firefox for iOS container of N tabs in one window for the benchmarks, with Python's
json and plistlib: profile.profile/window-data/window-<UUID> (as Foundation's JSONEncoder lays
it out), the same file as its backup, and one WebKit session state (a big-endian version 2, then a
binary plist of 1 to 12 back/forward entries) per tab in tab-session-data/.

Usage: Benchmarks/make-firefox-container.py TABS DIRECTORY
"""
import json, os, plistlib, random, sys, uuid

tabs, root = int(sys.argv[1]), sys.argv[2]
rng = random.Random(tabs)
profile = os.path.join(root, "profile.profile")
for name in ("window-data", "window-data-backup", "tab-session-data"):
    os.makedirs(os.path.join(profile, name), exist_ok=True)
window = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() for _ in range(tabs)]
data = []
for index, tab in enumerate(ids):
    items = rng.randint(1, 12)
    urls = [f"https://site{index % 97}.example.com/page/{index}/{item}?q={rng.getrandbits(32):x}" for item in range(items)]
    data.append({"id": tab, "title": f"Page {index} of a benchmark window", "siteUrl": urls[-1], "isPrivate": False,
                 "lastUsedTime": 800_000_000 + index * 7.25, "createdAtTime": 790_000_000 + index * 3.5})
    entries = [{"SessionHistoryEntryURL": url, "SessionHistoryEntryTitle": f"Title {item}", "SessionHistoryEntryOriginalURL": url,
                "SessionHistoryEntryShouldOpenExternalURLsPolicyKey": 1} for item, url in enumerate(urls)]
    history = {"SessionHistoryVersion": 1, "SessionHistoryCurrentIndex": items - 1, "SessionHistoryEntries": entries}
    state = (2).to_bytes(4, "big") + plistlib.dumps({"SessionHistory": history, "IsAppInitiated": True}, fmt=plistlib.FMT_BINARY)
    with open(os.path.join(profile, "tab-session-data", f"tab-{tab}"), "wb") as out:
        out.write(state)
document = json.dumps({"id": window, "activeTabId": ids[-1], "tabData": data}, separators=(",", ":")).replace("/", "\\/")
for name in ("window-data", "window-data-backup"):
    with open(os.path.join(profile, name, f"window-{window}"), "w") as out:
        out.write(document)

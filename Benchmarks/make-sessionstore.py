#!/usr/bin/env python3
"""Writes a Firefox desktop profile whose sessionstore-backups/recovery.jsonlz4 holds about SIZE
megabytes of session JSON, deterministically, with Python's json and lz4.block: windows of tabs
with a few history entries each, titles, referrers, closed tabs, form data and cookies, as Firefox
writes them.

Usage: Benchmarks/make-sessionstore.py SIZE_MB PROFILE
"""
import json, os, struct, sys

import lz4.block

size = int(sys.argv[1]) * 1_000_000
profile = sys.argv[2]
words = ("session store window tab history entry restore crash recovery profile mozilla firefox "
         "reader backup archive journal network cache cookie storage").split()


def entry(n, k):
    title = " ".join(words[(n * 7 + k * 3 + i) % len(words)] for i in range(8))
    return {"url": f"https://site{n % 997}.example.org/path/{n}/{k}?q={n * 31 + k}", "title": title,
            "charset": "UTF-8", "ID": n * 10 + k, "docshellUUID": "{%08x-0000-4000-8000-%012x}" % (n, k),
            "referrerInfo": "BBoSSb" * 8, "triggeringPrincipal_base64": "{\"3\":{}}", "hasUserInteraction": True,
            "persist": True, "docIdentifier": n * 10 + k, "cacheKey": 0}


def tab(n):
    count = 1 + n % 6
    return {"entries": [entry(n, k) for k in range(count)], "lastAccessed": 1764000000000 + n, "pinned": n % 50 == 0,
            "hidden": False, "attributes": {}, "index": count, "requestedIndex": 0, "userContextId": 0,
            "formdata": {"id": {"q": f"search {n}"}, "url": f"https://site{n % 997}.example.org/"},
            "storage": {f"https://site{n % 997}.example.org": {"key": "value" * 4}}, "image": None}


tabs = []
text_size = 0
n = 0
while text_size < size:
    t = tab(n)
    tabs.append(t)
    text_size += len(json.dumps(t, separators=(",", ":")))
    n += 1
per_window = max(1, len(tabs) // 10)
windows = [{"tabs": tabs[i:i + per_window], "selected": 1, "_closedTabs": [], "busy": False, "width": 1280,
            "height": 800, "sizemode": "normal"} for i in range(0, len(tabs), per_window)]
document = {"version": ["sessionrestore", 1], "windows": windows, "selectedWindow": 1, "_closedWindows": [],
            "session": {"lastUpdate": 1764000000000, "startTime": 1763990000000, "recentCrashes": 0},
            "global": {}, "cookies": [{"host": ".example.org", "name": "id", "value": "x" * 20, "path": "/"}]}
data = json.dumps(document, separators=(",", ":")).encode()
os.makedirs(os.path.join(profile, "sessionstore-backups"), exist_ok=True)
with open(os.path.join(profile, "sessionstore-backups", "recovery.jsonlz4"), "wb") as out:
    out.write(b"mozLz40\0" + struct.pack("<I", len(data)) + lz4.block.compress(data, store_size=False))
print(f"{len(tabs)} tabs, {len(data)} bytes of JSON", file=sys.stderr)

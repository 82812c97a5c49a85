#!/usr/bin/env python3
"""Writes a Safari for iOS BrowserState.db of N tabs for Benchmarks/run, deterministically: Safari's
schema 8 in WAL mode, five open windows, each tab with a WebKit session state of 1 to 12 entries
(one tab in a hundred with large frame states, over 1 MiB raw and stored as Apple's LZ4 stream,
compressed with the lz4 package), the last tenth of the tabs written after the last checkpoint
(only in the -wal file).

Usage: Benchmarks/make-safari.py N DIRECTORY   (writes DIRECTORY/BrowserState.db, -wal, -shm)
"""
import os
import plistlib
import random
import shutil
import sqlite3
import struct
import sys
import tempfile

import lz4.block

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "safari-ios"))
SCHEMA = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "safari-ios", "make-fixtures")).read()
SCHEMA = SCHEMA[SCHEMA.index('SCHEMA = """') + 12:]
SCHEMA = SCHEMA[:SCHEMA.index('"""')]

count, target = int(sys.argv[1]), sys.argv[2]
rng = random.Random(5000)


def state(tab, entries, frame):
    items = []
    for index in range(entries):
        url = "https://example.com/%d/page/%d?q=%s" % (tab, index, "x" * rng.randint(0, 60))
        item = {"SessionHistoryEntryURL": url, "SessionHistoryEntryTitle": "Page %d of tab %d" % (index, tab),
                "SessionHistoryEntryOriginalURL": url}
        if frame:
            item["SessionHistoryEntryData"] = b"\0" * 8 + struct.pack("<I", 2) + url.encode() + bytes(frame)
        items.append(item)
    history = {"SessionHistoryVersion": 1, "SessionHistoryCurrentIndex": entries - 1, "SessionHistoryEntries": items}
    return struct.pack(">I", 2) + plistlib.dumps({"SessionHistory": history}, fmt=plistlib.FMT_BINARY)


work = tempfile.mkdtemp()
path = os.path.join(work, "BrowserState.db")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.executescript(SCHEMA)
db.execute("PRAGMA user_version=8")
windows = ["%08X-0000-4000-8000-%012X" % (w, w) for w in range(1, 6)]
for number, uuid in enumerate(windows, 1):
    db.execute("INSERT INTO browser_windows (id, uuid, type, active_document_index) VALUES (?, ?, 0, 0)", (number, uuid))
db.execute("BEGIN")
for tab in range(count):
    if tab == count - count // 10:
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("BEGIN")
    uuid = "%08X-1111-4000-8000-%012X" % (tab, tab)
    window = tab % 5
    db.execute("INSERT INTO tabs (uuid, title, url, user_visible_url, order_index, last_viewed_time, private_browsing, "
               "browser_window_uuid, browser_window_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (uuid, "Tab %d" % tab, "https://example.com/%d" % tab, "https://example.com/%d" % tab, tab // 5,
                790_000_000.0 + tab, int(tab % 17 == 0), windows[window], window + 1))
    big = tab % 100 == 50
    raw = state(tab, 12 if big else rng.randint(1, 12), (96 << 10) if big else 0)
    data = raw
    if len(raw) >= 1 << 20:
        block = lz4.block.compress(raw, store_size=False)
        data = b"bv41" + struct.pack("<II", len(raw), len(block)) + block + b"bv4$"
    db.execute("INSERT INTO tab_sessions (tab_uuid, session_data, uncompressed_session_data_size) VALUES (?, ?, ?)",
               (uuid, data, len(raw)))
db.execute("COMMIT")
os.makedirs(target, exist_ok=True)
for suffix in ["", "-wal", "-shm"]:
    shutil.copyfile(path + suffix, os.path.join(target, "BrowserState.db" + suffix))
db.close()
shutil.rmtree(work)

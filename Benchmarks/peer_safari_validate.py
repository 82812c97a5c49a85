#!/usr/bin/env python3
"""The Python peer of `sessionctl validate` on Safari for iOS's BrowserState.db: the same reads and
checks with sqlite3, plistlib and the lz4 package. The database and its -wal and -shm are copied
to a scratch directory and opened there; PRAGMA integrity_check(1) and user_version; every window,
tab and session state read; each state decompressed when it is Apple's LZ4 stream (bv41 blocks,
bv4- stored blocks, bv4$), its WebKit version and property list checked (SessionHistory, its
current index naming an entry), and over 2 MiB or a size that lies counted; tabs of a missing
window and windows whose active index names none of their regular tabs counted. Prints the number
of findings.

Usage: Benchmarks/peer_safari_validate.py DIRECTORY   (holding BrowserState.db)
"""
import os
import plistlib
import shutil
import sqlite3
import struct
import sys
import tempfile

import lz4.block

source = os.path.join(sys.argv[1], "BrowserState.db")
scratch = tempfile.mkdtemp()
for suffix in ["", "-wal", "-shm"]:
    if os.path.exists(source + suffix):
        shutil.copyfile(source + suffix, os.path.join(scratch, "BrowserState.db" + suffix))
findings = 0


def apple_lz4(data):
    out = bytearray()
    offset = 0
    while True:
        magic = data[offset:offset + 4]
        if magic == b"bv4$":
            return bytes(out)
        if magic == b"bv4-":
            (size,) = struct.unpack_from("<I", data, offset + 4)
            out += data[offset + 8:offset + 8 + size]
            offset += 8 + size
        elif magic == b"bv41":
            decoded, encoded = struct.unpack_from("<II", data, offset + 4)
            out += lz4.block.decompress(data[offset + 12:offset + 12 + encoded], uncompressed_size=decoded,
                                        dict=bytes(out[-65536:]))
            offset += 12 + encoded
        else:
            raise ValueError("no block")


try:
    db = sqlite3.connect(os.path.join(scratch, "BrowserState.db"))
    if db.execute("PRAGMA integrity_check(1)").fetchone()[0] != "ok":
        findings += 1
    else:
        if db.execute("PRAGMA user_version").fetchone()[0] != 8:
            findings += 1
        windows = {uuid: (kind, active) for uuid, kind, active in
                   db.execute("SELECT uuid, type, active_document_index FROM browser_windows")}
        regular = {}
        for uuid, window, private in db.execute("SELECT uuid, browser_window_uuid, private_browsing FROM tabs"):
            if window not in windows:
                findings += 1
            if not private:
                regular[window] = regular.get(window, 0) + 1
        for uuid, (kind, active) in windows.items():
            if kind == 0 and regular.get(uuid) and active is not None and not 0 <= active < regular[uuid]:
                findings += 1
        for uuid, data, size in db.execute("SELECT tab_uuid, session_data, uncompressed_session_data_size FROM tab_sessions"):
            if not data:
                continue
            try:
                raw = apple_lz4(data) if size and size != len(data) else data
                if size and size != len(data) and len(raw) > size:
                    findings += 1
                (version,) = struct.unpack_from(">I", raw, 0)
                plist = plistlib.loads(raw[4:])
                history = plist.get("SessionHistory") if version == 2 else None
                if not isinstance(history, dict):
                    raise ValueError("no history")
                entries = history.get("SessionHistoryEntries", [])
                current = history.get("SessionHistoryCurrentIndex")
                if current is not None and not 0 <= current < len(entries):
                    raise ValueError("current index")
                for entry in entries:
                    entry["SessionHistoryEntryURL"], entry["SessionHistoryEntryTitle"]
                if len(raw) > 2 << 20:
                    findings += 1
            except Exception:
                findings += 1
    db.close()
except sqlite3.DatabaseError:
    findings += 1
shutil.rmtree(scratch)
print(findings)

#!/usr/bin/env python3
"""The Python peer of `sessionctl validate` on a Firefox desktop session file: mozLz4 decoded with
lz4.block (liblz4), the JSON parsed with json, and every window's tabs and entries walked for the
current entry, as the validator reads them. Prints the number of tabs. With --decompress-only,
only decodes the block: liblz4's part alone, the floor of any reader.

Usage: Benchmarks/peer_sessionstore.py FILE [--decompress-only]
"""
import json, struct, sys

import lz4.block

with open(sys.argv[1], "rb") as f:
    raw = f.read()
assert raw[:8] == b"mozLz40\0"
size = struct.unpack("<I", raw[8:12])[0]
data = lz4.block.decompress(raw[12:], uncompressed_size=size)
if "--decompress-only" in sys.argv:
    print(len(data))
    sys.exit(0)
session = json.loads(data)
tabs = 0
for window in session.get("windows", []):
    for tab in window.get("tabs", []):
        entries = tab.get("entries", [])
        index = tab.get("index") or len(entries)
        current = entries[min(max(index, 1), len(entries)) - 1] if entries else None
        tabs += 1
print(tabs)

#!/usr/bin/env python3
"""The Python peer of reading a Chromium desktop session file: a plain record walk over one SNSS
file (uint16 size including the id byte, uint8 id, contents) that decodes every
UpdateTabNavigation (tab id, index, URL, title) and the SetTabWindow, SetSelectedNavigationIndex,
TabClosed and WindowClosed commands, keeping the latest state per tab. It stops at the first
damaged record, as Chrome's reader does. Prints one line of JSON: the windows holding a counted
tab, the tabs that have a window and at least one navigation, and those tabs' navigations.
Standard library only.

Usage: Benchmarks/peer_snss.py FILE
"""
import json
import struct
import sys

SET_TAB_WINDOW, UPDATE_TAB_NAVIGATION, SET_SELECTED_NAVIGATION_INDEX = 0, 6, 7
TAB_CLOSED, WINDOW_CLOSED = 16, 17


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if data[:4] != b"SNSS" or struct.unpack_from("<i", data, 4)[0] not in (1, 3):
        sys.exit("peer_snss: not a cleartext SNSS file")
    unpack_i = struct.Struct("<i").unpack_from
    unpack_ii = struct.Struct("<ii").unpack_from
    unpack_h = struct.Struct("<H").unpack_from
    window_of = {}          # tab id -> window id
    navigations = {}        # tab id -> {index: (url, title)}
    selected = {}           # tab id -> selected navigation index
    closed_windows = set()
    pos, end = 8, len(data)
    while end - pos >= 2:
        size = unpack_h(data, pos)[0]
        if size == 0 or pos + 2 + size > end:
            break
        cid = data[pos + 2]
        body = pos + 3
        pos += 2 + size
        if cid == UPDATE_TAB_NAVIGATION:
            # Pickle: uint32 payload size, int32 tab id, int32 index, string URL, string16 title.
            at = body + 4
            tab, index = unpack_ii(data, at)
            at += 8
            length = unpack_i(data, at)[0]
            at += 4
            url = data[at:at + length].decode("utf-8", "replace")
            at += (length + 3) & ~3
            units = unpack_i(data, at)[0]
            at += 4
            title = data[at:at + 2 * units].decode("utf-16-le", "replace")
            navigations.setdefault(tab, {})[index] = (url, title)
        elif cid == SET_TAB_WINDOW:
            window, tab = unpack_ii(data, body)
            window_of[tab] = window
        elif cid == SET_SELECTED_NAVIGATION_INDEX:
            tab, index = unpack_ii(data, body)
            selected[tab] = index
        elif cid == TAB_CLOSED:
            tab = unpack_i(data, body)[0]
            window_of.pop(tab, None)
            navigations.pop(tab, None)
            selected.pop(tab, None)
        elif cid == WINDOW_CLOSED:
            closed_windows.add(unpack_i(data, body)[0])
    windows = set()
    tabs = 0
    count = 0
    for tab, window in window_of.items():
        navs = navigations.get(tab)
        if not navs or window in closed_windows:
            continue
        windows.add(window)
        tabs += 1
        count += len(navs)
    print(json.dumps({"windows": len(windows), "tabs": tabs, "navigations": count}))


if __name__ == "__main__":
    main()

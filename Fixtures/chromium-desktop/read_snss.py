#!/usr/bin/python3
"""A small decoder of Chromium desktop session files, written apart from snss.py (it shares no
code with it) so that make-gallery can check what it wrote. It models what Chromium does, from the
facts in docs/chromium-desktop-format.md:

* records(): SessionFileReader::ReadCommand's framing and where it stops;
* last_session_file(): CommandStorageBackend::FindLastSessionFile, for the newest backend
  ("current": versions 3 and 5 only, no legacy names) or the older one of Chrome 85 until early
  2026 ("m85": versions 1 and 3, legacy "Current Session" as a fallback);
* replay(): CreateTabsAndWindows, AddTabsToWindows, SortTabsBasedOnVisualOrderAndClear and
  UpdateSelectedTabIndex, stopping at the first unknown or unparsable command as Chrome does;
* replay_tab_restore(): the tab restore service's CreateEntriesFromCommands;
* launch(): which file Chrome reads and whether it restores it at startup.

Usage: read_snss.py FILE_OR_PROFILE   (prints what it finds as JSON)
"""
import json
import os
import struct
import sys

MAGIC = b"SNSS"
MARKER = 255


# ---- framing ---------------------------------------------------------------------------------

def header_version(data):
    """The version, or None if the 8-byte header is missing or the signature is wrong."""
    if len(data) < 8 or data[:4] != MAGIC:
        return None
    return struct.unpack_from("<i", data, 4)[0]


def records(data, encrypted_framing=False):
    """Walks the records after the header. Returns (list of (offset, id, payload), end) where end
    is "clean", "size-cut" (fewer bytes than a size field), "zero-size" or "past-end"."""
    out = []
    pos = 8
    size_len = 4 if encrypted_framing else 2
    while True:
        left = len(data) - pos
        if left == 0:
            return out, "clean"
        if left < size_len:
            return out, "size-cut"
        if encrypted_framing:
            size = struct.unpack_from("<I", data, pos)[0]
        else:
            size = struct.unpack_from("<H", data, pos)[0]
        if size == 0 and not encrypted_framing:
            return out, "zero-size"
        if size > left - size_len:
            return out, "past-end"
        body = data[pos + size_len:pos + size_len + size]
        if encrypted_framing:
            out.append((pos, None, body))
        else:
            out.append((pos, body[0], body[1:]))
        pos += size_len + size


# ---- pickles ---------------------------------------------------------------------------------

class PickleReader:
    """base::PickleIterator over a base::Pickle header check: header size = length - payload
    size, which must fit and be a multiple of 4 (else nothing can be read)."""

    def __init__(self, data):
        self.data = data
        self.ok = True
        self.pos = 0
        self.end = 0
        if len(data) >= 4:
            payload = struct.unpack_from("<I", data, 0)[0]
            head = len(data) - payload
            if 0 < head <= len(data) and head % 4 == 0:
                self.pos, self.end = head, len(data)

    def _take(self, count):
        if count > self.end - self.pos:
            self.pos = self.end
            raise ValueError("pickle too short")
        start = self.pos
        self.pos = min(self.end, self.pos + ((count + 3) & ~3))
        return self.data[start:start + count]

    def int(self):
        return struct.unpack("<i", self._take(4))[0]

    def uint32(self):
        return struct.unpack("<I", self._take(4))[0]

    def int64(self):
        return struct.unpack("<q", self._take(8))[0]

    def uint64(self):
        return struct.unpack("<Q", self._take(8))[0]

    def double(self):
        return struct.unpack("<d", self._take(8))[0]

    def bool(self):
        return self._take(1)[0] != 0

    def length(self):
        value = self.int()
        if value < 0:
            raise ValueError("negative length")
        return value

    def bytes(self):
        return self._take(self.length())

    def string(self):
        return self.bytes().decode("utf-8", "replace")

    def string16(self):
        return self._take(self.length() * 2).decode("utf-16-le", "replace")

    def optional(self, read):
        try:
            return read()
        except ValueError:
            return None


def navigation(reader):
    """ReadFromPickle: the first five fields are required, the rest optional."""
    nav = {"index": reader.int(), "url": reader.string(), "title": reader.string16()}
    reader.bytes()                  # encoded page state
    nav["transition"] = reader.int()
    mask = reader.optional(reader.int)
    if mask is not None:
        nav["referrer"] = reader.optional(reader.string)
        reader.optional(reader.int)  # obsolete referrer policy
        nav["original_request_url"] = reader.optional(reader.string)
        reader.optional(reader.bool)
        nav["timestamp"] = reader.optional(reader.int64)
        reader.optional(reader.string16)
        nav["http_status"] = reader.optional(reader.int)
    return nav


def session_id(value):
    return value if value > 0 else -1


# ---- session replay --------------------------------------------------------------------------

STRUCT_SIZES = {0: 8, 2: 8, 5: 8, 7: 8, 8: 8, 9: 8, 10: 24, 11: 8, 12: 8, 14: 24, 16: 16,
                17: 16, 20: 4, 21: 16, 24: 12, 25: 32, 32: 8, 36: 32}


class Stop(Exception):
    pass


def replay(commands):
    """commands: list of (id, payload), marker removed. Returns a dict: windows (valid, sorted,
    tabs in visual order) and where replay stopped, if it did."""
    tabs, windows, groups = {}, {}, {}
    fresh = [0]

    def tab(tid):
        if tid not in tabs:
            fresh[0] += 1
            tabs[tid] = {"id": tid, "window": ("fresh", fresh[0]), "visual": -1, "current": -1,
                         "navs": [], "pinned": False, "group": None}
        return tabs[tid]

    def window(wid):
        if wid not in windows:
            windows[wid] = {"id": wid, "selected": -1, "type": 0, "constrained": True,
                            "user_title": "", "tabs": []}
        return windows[wid]

    def fixed(cid, payload, fmt):
        if len(payload) != STRUCT_SIZES[cid]:
            raise Stop("payload size %d" % len(payload))
        return struct.unpack(fmt, payload)

    def closest(navs, index):
        for i, nav in enumerate(navs):
            if nav["index"] >= index:
                return i
        return len(navs)

    def prune(t, index, count):
        cur = t["current"]
        if index <= cur < index + count:
            t["current"] = index - 1
        elif cur >= index + count:
            t["current"] = cur - count
        navs = t["navs"]
        del navs[closest(navs, index):closest(navs, index + count)]
        for nav in navs:
            if nav["index"] >= index:
                nav["index"] -= count

    stopped = None
    for position, (cid, payload) in enumerate(commands):
        try:
            if cid == 0:
                w, t = fixed(cid, payload, "<ii")
                tab(session_id(t))["window"] = session_id(w)
            elif cid in (10, 14):
                values = fixed(cid, payload, "<iiiiiB3x" if cid == 10 else "<6i")
                window(session_id(values[0]))
            elif cid == 2:
                t, index = fixed(cid, payload, "<ii")
                tab(session_id(t))["visual"] = index
            elif cid in (16, 17):
                ident, _ = fixed(cid, payload, "<i4xq")
                (tabs if cid == 16 else windows).pop(session_id(ident), None)
            elif cid == 5:
                t, index = fixed(cid, payload, "<ii")
                navs = tab(session_id(t))["navs"]
                del navs[closest(navs, index):]
            elif cid == 11:
                t, count = fixed(cid, payload, "<ii")
                if count <= 0:
                    raise Stop("prune count")
                prune(tab(session_id(t)), 0, count)
            elif cid == 24:
                t, index, count = fixed(cid, payload, "<iii")
                if index < 0 or count <= 0:
                    raise Stop("prune range")
                prune(tab(session_id(t)), index, count)
            elif cid == 6:
                reader = PickleReader(payload)
                try:
                    t = session_id(reader.int())
                    nav = navigation(reader)
                except ValueError:
                    raise Stop("navigation pickle")
                navs = tab(t)["navs"]
                i = closest(navs, nav["index"])
                if i < len(navs) and navs[i]["index"] == nav["index"]:
                    navs[i] = nav
                else:
                    navs.insert(i, nav)
            elif cid == 7:
                t, index = fixed(cid, payload, "<ii")
                tab(session_id(t))["current"] = index
            elif cid == 8:
                w, index = fixed(cid, payload, "<ii")
                window(session_id(w))["selected"] = index
            elif cid == 9:
                w, kind = fixed(cid, payload, "<ii")
                win = window(session_id(w))
                win["constrained"] = False
                win["type"] = kind
            elif cid in (25, 36):
                t, high, low, has = fixed(cid, payload, "<i4xQQB7x")
                if cid == 25:
                    tab(session_id(t))["group"] = "%016x%016x" % (high, low) if has else None
                else:
                    tab(session_id(t))
            elif cid == 27:
                reader = PickleReader(payload)
                try:
                    token = "%016x%016x" % (reader.uint64(), reader.uint64())
                    title = reader.string16()
                    color = reader.uint32()
                except ValueError:
                    raise Stop("group metadata pickle")
                groups[token] = {"title": title, "color": color}
                if reader.optional(reader.bool) is not None:
                    if reader.optional(reader.bool):
                        if reader.optional(reader.string) is None:
                            raise Stop("saved guid")
            elif cid == 37:
                reader = PickleReader(payload)
                try:
                    reader.uint64(), reader.uint64(), reader.double(), reader.string()
                except ValueError:
                    raise Stop("split data pickle")
            elif cid == 12:
                t, pinned = fixed(cid, payload, "<iB3x")
                tab(session_id(t))["pinned"] = pinned != 0
            elif cid in (13, 15, 18, 19, 23, 28, 31):
                reader = PickleReader(payload)
                try:
                    ident = session_id(reader.int())
                    text = reader.string()
                except ValueError:
                    raise Stop("pickle")
                if cid in (15, 23, 31):
                    win = window(ident)
                    if cid == 31:
                        win["user_title"] = text
                else:
                    if cid == 28 and not valid_uuid(text):
                        raise Stop("guid")
                    tab(ident)
            elif cid == 29:
                reader = PickleReader(payload)
                try:
                    t = session_id(reader.int())
                    reader.string()
                    if reader.bool():
                        reader.string()
                except ValueError:
                    raise Stop("user agent pickle")
                tab(t)
            elif cid == 30:
                reader = PickleReader(payload)
                try:
                    t = session_id(reader.int())
                    for _ in range(reader.int()):
                        reader.string(), reader.string()
                except ValueError:
                    raise Stop("tab data pickle")
                tab(t)
            elif cid in (33, 34):
                reader = PickleReader(payload)
                try:
                    ident = session_id(reader.int())
                    reader.string(), reader.string()
                except ValueError:
                    raise Stop("extra data pickle")
                tab(ident) if cid == 33 else window(ident)
            elif cid == 35:
                reader = PickleReader(payload)
                try:
                    reader.string()
                except ValueError:
                    raise Stop("platform session id")
            elif cid == 20:
                fixed(cid, payload, "<i")
            elif cid == 21:
                t, _ = fixed(cid, payload, "<i4xq")
                tab(session_id(t))
            elif cid == 32:
                w, _ = fixed(cid, payload, "<iB3x")
                window(session_id(w))
            else:
                raise Stop("unknown command %d" % cid)
        except Stop as stop:
            stopped = {"command": position, "id": cid, "reason": str(stop)}
            break

    # AddTabsToWindows: tabs with a window id and at least one navigation.
    for t in tabs.values():
        if not t["navs"]:
            continue
        win = window(t["window"])
        i = closest(t["navs"], t["current"])
        t["current"] = len(t["navs"]) - 1 if i == len(t["navs"]) else i
        win["tabs"].append(t)
    valid = []
    for win in windows.values():
        if not win["tabs"] or win["constrained"]:
            continue
        win["tabs"].sort(key=lambda t: (t["visual"], t["id"]))
        valid.append(win)
    valid.sort(key=lambda w: w["id"])
    for win in valid:
        position = 0
        for i, t in enumerate(win["tabs"]):
            if t["visual"] == win["selected"]:
                position = i
                break
        win["selected"] = position
    # SessionServiceBase::RemoveUnusedRestoreWindows keeps normal and popup windows.
    restored = [w for w in valid if w["type"] in (0, 1)]
    return {"windows": restored, "stopped": stopped, "groups": groups}


def valid_uuid(text):
    parts = text.split("-")
    return [len(p) for p in parts] == [8, 4, 4, 4, 12] and all(
        c in "0123456789abcdefABCDEF" for c in "".join(parts))


# ---- tab restore replay ----------------------------------------------------------------------

def replay_tab_restore(commands):
    """CreateEntriesFromCommands: positional; returns entries newest first."""
    entries = []
    current_tab = None
    pending = None          # [entry, tabs left]
    for cid, payload in commands:
        if cid == 4:
            if len(payload) == 16:
                tid, index, _ = struct.unpack("<iiq", payload)
            elif len(payload) == 8:
                tid, index = struct.unpack("<ii", payload)
            else:
                break
            current_tab = {"id": tid, "current": index, "navs": [], "pinned": False}
            if pending:
                pending[0]["tabs"].append(current_tab)
                pending[1] -= 1
                if pending[1] == 0:
                    pending = None
            else:
                entries = [e for e in entries if e.get("id") != tid]
                entries.append({"type": "tab", "id": tid, "tab": current_tab})
        elif cid == 1:
            if current_tab is None:
                break
            reader = PickleReader(payload)
            try:
                reader.int()
                nav = navigation(reader)
            except ValueError:
                break
            nav["index"] = len(current_tab["navs"])
            current_tab["navs"].append(nav)
        elif cid == 9 or cid == 13:
            if pending:
                break
            reader = PickleReader(payload)
            try:
                if cid == 9:
                    wid, selected, count = reader.int(), reader.int(), reader.int()
                    entry = {"type": "window", "id": wid, "selected": selected, "tabs": []}
                else:
                    reader.uint64(), reader.uint64()
                    wid, count = reader.int(), reader.int()
                    entry = {"type": "group", "id": wid, "tabs": []}
            except ValueError:
                break
            if count <= 0:
                break
            entries = [e for e in entries if e.get("id") != wid]
            entries.append(entry)
            pending = [entry, count]
        elif cid == 2:
            if pending or len(payload) != 4:
                break
            rid = struct.unpack("<i", payload)[0]
            entries = [e for e in entries if e.get("id") != rid]
            current_tab = None
        elif cid in (5, 6, 7, 8, 10, 11, 12, 14):
            if cid in (5, 6, 8, 10, 11, 14) and current_tab is None:
                break
            if cid == 5:
                current_tab["pinned"] = True
        else:
            break

    def valid_tab(t):
        return t["navs"] and 0 <= t["current"] < len(t["navs"])

    kept = []
    for entry in reversed(entries):
        if entry["type"] == "tab" and valid_tab(entry["tab"]):
            kept.append(entry)
        elif entry["type"] == "window" and entry["tabs"] and all(map(valid_tab, entry["tabs"])) \
                and 0 <= entry["selected"] < len(entry["tabs"]):
            kept.append(entry)
        elif entry["type"] == "group" and all(map(valid_tab, entry["tabs"])):
            kept.append(entry)
    return kept


# ---- file selection and the launch decision --------------------------------------------------

# ---- products of the family -------------------------------------------------------------------
# Vivaldi's published session_service_commands.cc ("VIVALDI SPECIFIC below"): its own 21 and 22
# (extra data) and 200-202, and Chromium's 21-34 written as 23-36. Edge's (no public code; from
# files Edge wrote and restored): its own 131, 132, 44, 50, and 34 with an 8-byte payload.
VIVALDI_TO_CHROMIUM = {cid: cid - 2 for cid in range(23, 40)}  # 24 and 28 become the obsolete 22, 26
VIVALDI_OWN = {21, 22, 200, 201, 202}
EDGE_OWN = {131, 132, 44, 50}


def product_of(profile, data_list):
    """The product: from Preferences' top-level keys, else Edge's 131 and 132 both in the records."""
    try:
        with open(os.path.join(profile, "Preferences"), encoding="utf-8") as f:
            keys = set(json.load(f))
    except (OSError, ValueError, TypeError):
        keys = set()
    if "edge" in keys or any(k.startswith("edge_") for k in keys):
        return "edge"
    if "vivaldi" in keys:
        return "vivaldi"
    for data in data_list:
        found, _ = records(data)
        ids = {cid for _, cid, _ in found}
        if {131, 132} <= ids:
            return "edge"
    return None


def translate(commands, product):
    """The commands in Chromium's numbering, the product's own left out (its browser reads them
    and they shape no window or tab of the model)."""
    out = []
    for cid, payload in commands:
        if product == "vivaldi":
            if cid in VIVALDI_OWN:
                continue
            cid = VIVALDI_TO_CHROMIUM.get(cid, cid)
        elif product == "edge":
            if cid in EDGE_OWN or (cid == 34 and len(payload) == 8):
                continue
        out.append((cid, payload))
    return out


def file_commands(data, mode="current", product=None):
    """The commands Chrome reads from one file (marker dropped), or None when it reads none."""
    version = header_version(data)
    readable = (3,) if mode == "current" else (1, 3)
    if version not in readable:
        return None
    found, _ = records(data)
    return translate([(cid, payload) for _, cid, payload in found if cid != MARKER], product)


def usable_for_last_session(data, mode="current"):
    """CanUseFileForLastSession."""
    version = header_version(data)
    if mode == "current":
        valid = version == 3
        if not valid:
            return True
    else:
        if version != 3:
            return True         # no marker support (or an invalid header): usable
    found, _ = records(data)
    return any(cid == MARKER for _, cid, _ in found)


def session_files(profile, prefix):
    directory = os.path.join(profile, "Sessions")
    if not os.path.isdir(directory):
        return []
    out = []
    for name in os.listdir(directory):
        parts = [p for p in name.split("_") if p]
        if len(parts) == 2 and parts[0] == prefix:
            try:
                out.append((int(parts[1]), os.path.join(directory, name)))
            except ValueError:
                pass
    return [path for _, path in sorted(out, reverse=True)]


def last_session_file(profile, prefix="Session", mode="current"):
    for path in session_files(profile, prefix):
        with open(path, "rb") as f:
            if usable_for_last_session(f.read(), mode):
                return path
    if mode != "current":
        legacy = os.path.join(profile, "Current Session" if prefix == "Session" else "Current Tabs")
        if os.path.exists(legacy):
            return legacy
    return None


def preferences(profile):
    try:
        with open(os.path.join(profile, "Preferences"), encoding="utf-8") as f:
            prefs = json.load(f)
    except (OSError, ValueError):
        prefs = {}
    exit_type = prefs.get("profile", {}).get("exit_type", "Normal")
    restore = prefs.get("session", {}).get("restore_on_startup", 5)
    return exit_type, restore


def launch(profile, mode="current"):
    """What Chrome does at process startup with this profile."""
    exit_type, restore = preferences(profile)
    path = last_session_file(profile, "Session", mode)
    commands = None
    product = None
    if path:
        with open(path, "rb") as f:
            data = f.read()
        product = product_of(profile, [data])
        commands = file_commands(data, mode, product)
    session = replay(commands or [])
    tabs_path = last_session_file(profile, "Tabs", mode)
    closed = []
    if tabs_path:
        with open(tabs_path, "rb") as f:
            closed = replay_tab_restore(file_commands(f.read(), mode) or [])
    crashed = exit_type == "Crashed"
    return {
        "session_file": os.path.relpath(path, profile) if path else None,
        "product": product,
        "auto_restore": restore in (1, 6) and not crashed,
        "crash_bubble": crashed,
        "windows": [[tab_url(t) for t in w["tabs"]] for w in session["windows"]],
        "selected": [w["selected"] for w in session["windows"]],
        "stopped": session["stopped"],
        "closed": closed,
    }


def tab_url(t):
    return t["navs"][t["current"]]["url"]


def main():
    target = sys.argv[1]
    if os.path.isdir(target):
        out = {mode: launch(target, mode) for mode in ("current", "m85")}
    else:
        with open(target, "rb") as f:
            data = f.read()
        found, end = records(data)
        out = {"version": header_version(data), "records": len(found), "end": end,
               "marker": any(cid == MARKER for _, cid, _ in found)}
        commands = file_commands(data, "m85")
        if commands is not None:
            if os.path.basename(target).startswith("Tabs"):
                out["closed"] = replay_tab_restore(commands)
            else:
                result = replay(commands)
                out["windows"] = [[tab_url(t) for t in w["tabs"]] for w in result["windows"]]
                out["stopped"] = result["stopped"]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

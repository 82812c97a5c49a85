#!/usr/bin/env python3
"""Writes a deterministic sessionctl.inspect/1 document describing a large profile.

usage: make-profile.py TABS MIN_ITEMS MAX_ITEMS [WINDOW_TABS [TITLE_WORDS]] > profile.json
Tabs are spread over windows of at most WINDOW_TABS tabs (500 unless given; plus one incognito
window of 1/20 of them), each title followed by TITLE_WORDS more words (0 unless given);
every value comes from a seeded generator, so the same arguments always give the same bytes.
"""
import json, random, sys

def main():
    tabs, low, high = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    window_tabs = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    title_words = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    words = ["tide", "harbour", "almanac", "lighthouse", "気象", "forecast", "swell", "estuary", "pilot", "chart"]
    rng = random.Random(20261121 + tabs * 31 + low * 7 + high + (window_tabs - 500) * 13 + title_words * 17)
    base = 13_408_000_000_000_000  # 2025-11-19 in Windows-epoch microseconds
    def iso(us):
        import datetime
        t = datetime.datetime(1601, 1, 1) + datetime.timedelta(microseconds=us)
        return t.strftime('%Y-%m-%dT%H:%M:%S.%fZ')
    hosts = ["news.example.org", "mail.example.com", "docs.example.net", "shop.example.com", "video.example.tv", "例え.jp"]
    next_id = 1
    sessions = []
    incognito_tabs = max(1, tabs // 20)
    plan = []
    remaining = tabs - incognito_tabs
    window = 0
    while remaining > 0:
        count = min(window_tabs, remaining)
        plan.append((f"{window:08X}-0000-4000-8000-{window:012X}", False, count))
        remaining -= count
        window += 1
    plan.append((f"{0:08X}-0000-4000-8000-{0:012X}", True, incognito_tabs))
    for session_id, incognito, count in plan:
        tab_list = []
        for index in range(count):
            items = []
            n = rng.randint(low, high)
            created = base + rng.randint(0, 10**12)
            for k in range(n):
                host = rng.choice(hosts)
                items.append({"url": f"https://{host}/p/{next_id}/{k}?q={rng.randint(0, 10**9)}", "virtualURL": "",
                              "title": f"Page {next_id}.{k} — {host}" + "".join(" " + rng.choice(words) for _ in range(title_words)),
                              "timestamp": iso(created + k * 1_000_000),
                              "userAgent": "mobile",
                              "referrer": {"url": f"https://{host}/", "policy": "default"} if k else None,
                              "headers": []})
            lci = rng.randint(0, n - 1)
            tab_list.append({"id": next_id, "title": items[lci]["title"], "url": items[lci]["url"],
                             "creationTime": iso(created), "lastActiveTime": iso(created + n * 1_000_000),
                             "navigationItemCount": n,
                             "opener": {"index": index - 1, "navigationIndex": 0} if index and rng.random() < 0.1 else None,
                             "pinned": index < 3, "hasOpener": False, "userAgent": "automatic",
                             "history": {"lastCommittedIndex": lci, "items": items}})
            next_id += 1
        groups = []
        start = 3
        while start + 5 <= count and len(groups) < 10:
            groups.append({"start": start, "count": 4, "title": f"Group {len(groups)}", "color": "blue",
                           "collapsed": False, "id": f"{len(groups) + 1:016X}{next_id:016X}"})
            start += 40
        sessions.append({"id": session_id, "incognito": incognito, "format": "optimized", "activeIndex": count - 1,
                         "pinnedCount": min(3, count), "tabs": tab_list, "groups": groups})
    json.dump({"schema": "sessionctl.inspect/1", "sessions": sessions}, sys.stdout, ensure_ascii=False)

main()

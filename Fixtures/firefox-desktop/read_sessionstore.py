#!/usr/bin/python3
"""A small reader of Firefox desktop session files, written from Firefox's code and apart from
sessionctl's (standard library only): mozLz4 as IOUtils::MozLZ4::Decompress reads it (the magic,
a little-endian uint32 size, one LZ4 block decoded into at most that size), the JSON as
JSON.parse reads it, and each open window's tabs with the URL of the entry SessionStore selects
(`index`, 1-based, the last entry when absent, clamped to the entries).

Usage: read_sessionstore.py FILE   (prints {"windows": [[url, ...], ...]} as JSON)
"""
import json
import struct
import sys

MAGIC = b"mozLz40\0"


def extended(src, i, length, what):
    """A 4-bit length of a token, extended by the bytes after it when it is 15 (each added, until
    one is not 255). Returns the length and the index after it."""
    if length != 15:
        return length, i
    while True:
        if i >= len(src):
            raise ValueError("cut in a %s length" % what)
        extra = src[i]
        i += 1
        length += extra
        if extra != 255:
            return length, i


def lz4_block(src, limit):
    """LZ4's block format (lz4_Block_format.md): sequences of a token, literals, a 2-byte offset
    and a match; decoding stops at the end of the input. Raises ValueError on damage."""
    out = bytearray()
    i = 0
    while i < len(src):
        token = src[i]
        i += 1
        length, i = extended(src, i, token >> 4, "literal")
        if i + length > len(src):
            raise ValueError("literals past the end")
        out += src[i:i + length]
        i += length
        if i == len(src):
            break
        if i + 2 > len(src):
            raise ValueError("cut in an offset")
        offset = src[i] | src[i + 1] << 8
        i += 2
        if offset == 0 or offset > len(out):
            raise ValueError("offset outside the output")
        match, i = extended(src, i, token & 15, "match")
        match += 4
        start = len(out) - offset
        for k in range(match):
            out.append(out[start + k])
        if len(out) > limit:
            raise ValueError("more than the header's size")
    return bytes(out)


def document(data):
    if data.startswith(MAGIC):
        size = struct.unpack_from("<I", data, 8)[0]
        data = lz4_block(data[12:], size)
    return json.loads(data.decode("utf-8"))


def current_url(tab):
    entries = tab.get("entries") or []
    if not entries:
        return ""
    index = tab.get("index") or len(entries)
    index = min(max(int(index), 1), len(entries))
    return entries[index - 1].get("url", "")


def main():
    with open(sys.argv[1], "rb") as f:
        doc = document(f.read())
    windows = [[current_url(t) for t in w.get("tabs", [])] for w in doc.get("windows", [])]
    print(json.dumps({"windows": windows}))


if __name__ == "__main__":
    main()

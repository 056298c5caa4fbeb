#!/usr/bin/env python3
"""pack_recording.py DIR OUT: packs a recording directory into one fuzz input (fuzz_dir.h):
per file, one byte naming it (0 manifest, then 1 + 5*rank + k for k = log, tail, pending,
events, events.tail of ranks 0-3), two bytes of length (little-endian), the bytes. Files of
ranks above 3 are left out; a .pending file (65536 slots, 2 MiB) keeps its first live slots
in a file of PENDING_KEEP slots; any other file over 64 KiB is cut to 64 KiB - 1 (the readers
then see a cut-off, which is a case worth seeding too).

pack_recording.py --pending FILE OUT: the same shrinking for one .pending file."""
import os
import sys

SUFFIXES = ["log", "tail", "pending", "events", "events.tail"]
PENDING_HEADER, PENDING_SLOT, PENDING_KEEP = 64, 32, 16


def shrink_pending(data):
    """The live slots (state word at 0 non-zero) first, in a file of PENDING_KEEP slots."""
    if len(data) < PENDING_HEADER:
        return data
    slots = [data[i:i + PENDING_SLOT] for i in range(PENDING_HEADER, len(data), PENDING_SLOT)]
    live = [s for s in slots if len(s) == PENDING_SLOT and any(s[:8])][:PENDING_KEEP]
    live += [bytes(PENDING_SLOT)] * (PENDING_KEEP - len(live))
    header = bytearray(data[:PENDING_HEADER])
    header[8:12] = PENDING_KEEP.to_bytes(4, "little")
    return bytes(header) + b"".join(live)


def file_id(name):
    if name == "manifest":
        return 0
    if not name.startswith("rank-"):
        return None
    num, _, suffix = name[5:].partition(".")
    if not num.isdigit() or int(num) > 3 or suffix not in SUFFIXES:
        return None
    return 1 + 5 * int(num) + SUFFIXES.index(suffix)


def main():
    if sys.argv[1] == "--pending":
        open(sys.argv[3], "wb").write(shrink_pending(open(sys.argv[2], "rb").read()))
        return
    src, out = sys.argv[1], sys.argv[2]
    packed = bytearray()
    for name in sorted(os.listdir(src)):
        fid = file_id(name)
        if fid is None:
            continue
        data = open(os.path.join(src, name), "rb").read()
        if name.endswith(".pending"):
            data = shrink_pending(data)
        data = data[:0xffff]
        packed += bytes([fid]) + len(data).to_bytes(2, "little") + data
    open(out, "wb").write(packed)


main()

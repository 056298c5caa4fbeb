#!/usr/bin/env python3
"""dir_creations.py DIR: counts the names created in DIR and its subfolders (inotify IN_CREATE:
files and folders; a subfolder made meanwhile is watched from its creation) and the renames into
them (IN_MOVED_TO), the metadata operations a parallel file system's servers see, until it gets
SIGTERM or SIGINT; then prints "created N renamed M". Used by file_count.sh, which starts it once
DIR exists and stops it when the recording is done."""
import ctypes
import os
import select
import signal
import struct
import sys

IN_CREATE, IN_MOVED_TO, IN_ISDIR = 0x100, 0x80, 0x40000000
libc = ctypes.CDLL("libc.so.6", use_errno=True)
fd = libc.inotify_init()
if fd < 0:
    sys.exit("dir_creations.py: inotify_init failed")
watches = {}


def watch(path):
    wd = libc.inotify_add_watch(fd, path.encode(), IN_CREATE | IN_MOVED_TO)
    if wd >= 0:
        watches[wd] = path


watch(sys.argv[1])
for root, dirs, _ in os.walk(sys.argv[1]):
    for d in dirs:
        watch(os.path.join(root, d))
created = renamed = 0
stop = False


def on_signal(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)
print("watching", flush=True)
while True:
    try:
        ready, _, _ = select.select([fd], [], [], 0.2)
    except InterruptedError:
        ready = []
    if ready:
        buf = os.read(fd, 1 << 16)
        at = 0
        while at < len(buf):
            wd, mask, _, n = struct.unpack_from("iIII", buf, at)
            name = buf[at + 16:at + 16 + n].split(b"\0", 1)[0].decode()
            at += 16 + n
            if mask & IN_CREATE:
                created += 1
                if mask & IN_ISDIR:
                    watch(os.path.join(watches.get(wd, ""), name))
            if mask & IN_MOVED_TO:
                renamed += 1
    elif stop:
        break
print("created %d renamed %d" % (created, renamed), flush=True)

#!/usr/bin/env python3
"""Whether syncing a batch's journals side by side would be faster on this disk: N files of 30 KB
appended, then fdatasync'ed one after the other, or each from a thread of its own at once; the best
of R rounds of each, in milliseconds (session 70: 8 files, 3.1-3.4 ms in turn, 2.9-3.1 ms at once).
usage: python3 Tests/Figures/parallel_syncs.py [directory on the disk to test] [files] [rounds]"""
import os, sys, tempfile, threading, time

made = len(sys.argv) < 2
directory = tempfile.mkdtemp(dir="/var/tmp") if made else sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 8
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 15

def best(side_by_side):
    fastest = float("inf")
    for _ in range(rounds):
        descriptors = []
        for index in range(count):
            fd = os.open(os.path.join(directory, f"journal-{index}"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.write(fd, os.urandom(30_000))
            descriptors.append(fd)
        start = time.monotonic()
        if side_by_side:
            threads = [threading.Thread(target=os.fdatasync, args=(fd,)) for fd in descriptors]
            for thread in threads: thread.start()
            for thread in threads: thread.join()
        else:
            for fd in descriptors: os.fdatasync(fd)
        fastest = min(fastest, time.monotonic() - start)
        for fd in descriptors: os.close(fd)
    return fastest * 1000

for _ in range(2):
    print(f"{count} files in {directory}: in turn {best(False):.2f} ms, side by side {best(True):.2f} ms (best of {rounds})")
for index in range(count):
    os.unlink(os.path.join(directory, f"journal-{index}"))
if made:
    os.rmdir(directory)

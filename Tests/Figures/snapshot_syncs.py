#!/usr/bin/env python3
"""What a game's snapshot asks of the disk, and what grouping would save (issue 40: durability).

`serve --state-dir` writes one snapshot per game that ends (``MatchEngine.commit``'s settled
snapshot) the way ``CheckpointStore.write`` does: a temporary file written and fsynced, renamed
over the snapshot, the directory fsynced, and then the game's journal cut to nothing. This
measures that on the disk of the directory given (default: a temporary directory), for N games
of a 16 KB snapshot each (a generated game's at its end), against three grouped forms that a
batch of games could use, and the cost of the journals' truncation (a journal of 180 KB, synced
before, as a generated game's is at its end). Standard library only; Linux (syncfs).

    python3 Tests/Figures/snapshot_syncs.py [games] [rounds] [directory]

Prints the best of the rounds for each form.
"""
import ctypes
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

SNAPSHOT = b"x" * 16_000
JOURNAL_LINE = b"y" * 300
JOURNAL_LINES = 600


def sync_directory(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)


def write_temporaries(directory: str, games: int) -> list[int]:
    fds = []
    for game in range(games):
        fd = os.open(f"{directory}/game-{game}.json.tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, SNAPSHOT)
        fds.append(fd)
    return fds


def rename_all(directory: str, games: int) -> None:
    for game in range(games):
        os.rename(f"{directory}/game-{game}.json.tmp", f"{directory}/game-{game}.json")


def each_on_its_own(directory: str, games: int) -> None:
    """As CheckpointStore.write does today: every snapshot with its two syncs."""
    for game in range(games):
        fd = os.open(f"{directory}/game-{game}.json.tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, SNAPSHOT)
        os.fsync(fd)
        os.close(fd)
        os.rename(f"{directory}/game-{game}.json.tmp", f"{directory}/game-{game}.json")
        sync_directory(directory)


def grouped_fsyncs(directory: str, games: int) -> None:
    """Every file fsynced in turn, then the renames and one directory sync."""
    fds = write_temporaries(directory, games)
    for fd in fds:
        os.fsync(fd)
        os.close(fd)
    rename_all(directory, games)
    sync_directory(directory)


def grouped_threads(directory: str, games: int) -> None:
    """The files fsynced from 8 threads at once (the file system may commit them together)."""
    fds = write_temporaries(directory, games)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(os.fsync, fds))
    for fd in fds:
        os.close(fd)
    rename_all(directory, games)
    sync_directory(directory)


def grouped_syncfs(directory: str, games: int) -> None:
    """One syncfs for every file (it syncs the whole file system: anything else dirty on it too)."""
    fds = write_temporaries(directory, games)
    if ctypes.CDLL(None).syncfs(fds[0]) != 0:
        raise OSError(ctypes.get_errno(), "syncfs failed")
    for fd in fds:
        os.close(fd)
    rename_all(directory, games)
    sync_directory(directory)


def setup(directory: str, games: int) -> None:
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for game in range(games):
        with open(f"{directory}/game-{game}.json", "wb") as handle:
            handle.write(SNAPSHOT)
    os.sync()


def truncations(directory: str, games: int, synced: bool) -> float:
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    fds = []
    for game in range(games):
        fd = os.open(f"{directory}/game-{game}.journal", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        for _ in range(JOURNAL_LINES):
            os.write(fd, JOURNAL_LINE)
        if synced:
            os.fdatasync(fd)
        fds.append(fd)
    start = time.monotonic()
    for fd in fds:
        os.ftruncate(fd, 0)
    elapsed = time.monotonic() - start
    for fd in fds:
        os.close(fd)
    return elapsed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    base = sys.argv[3] if len(sys.argv) > 3 else None
    work = tempfile.mkdtemp(dir=base)
    directory = f"{work}/state"
    try:
        print(f"{games} snapshots of {len(SNAPSHOT)} bytes in {work}; best of {rounds}")
        forms = [
            ("each on its own (today: fsync, rename, directory sync)", each_on_its_own),
            ("grouped: each file fsynced in turn, one directory sync", grouped_fsyncs),
            ("grouped: the files fsynced from 8 threads, one directory sync", grouped_threads),
            ("grouped: one syncfs, one directory sync", grouped_syncfs),
        ]
        best = {name: float("inf") for name, _ in forms}
        for _ in range(rounds):
            for name, form in forms:
                setup(directory, games)
                start = time.monotonic()
                form(directory, games)
                best[name] = min(best[name], time.monotonic() - start)
        for name, _ in forms:
            print(f"  {best[name] * 1000:7.1f} ms  {best[name] * 1000 / games:5.2f} ms a game  {name}")
        for synced in (True, False):
            elapsed = min(truncations(directory, games, synced) for _ in range(rounds))
            what = "synced before (a finished game's)" if synced else "never synced"
            print(f"  {elapsed * 1000:7.1f} ms  {elapsed * 1000 / games:5.2f} ms a game  "
                  f"ftruncate of a {JOURNAL_LINES * len(JOURNAL_LINE) // 1000} KB journal, {what}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

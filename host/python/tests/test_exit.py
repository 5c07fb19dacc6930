"""A daemon thread in a call over a file system written in Python while the
interpreter exits: the process ends cleanly, every time."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import threading, time
from filetools import Tools, MemoryFs

class DiskLike(MemoryFs):
    def stat(self, path):
        time.sleep(0.0005)  # I/O that lets the GIL go
        return super().stat(path)

session = Tools(fs=DiskLike({"a.txt": "hi\\n"})).session()
def loop():
    while True:
        session.call("read", {"file_path": "a.txt"})
for _ in range(3):
    threading.Thread(target=loop, daemon=True).start()
time.sleep(0.2)
"""


def test_daemon_threads_in_calls_do_not_crash_the_exit() -> None:
    for _ in range(8):
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, timeout=60)
        assert done.returncode == 0, (done.returncode, done.stderr.decode()[-2000:])

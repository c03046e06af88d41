"""What the project's test servers share: living as a child of a test process."""

import os
import signal
import threading
import time


def run_as_child():
    """Make SIGTERM and SIGINT work again (a child inherits its parent's signal mask and ignored
    signals), and exit when the test process that started us is gone, so no server outlives a
    killed run."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()

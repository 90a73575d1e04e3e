"""Whether a long native call releases the GIL: the Python steps this thread runs meanwhile."""

import threading


def python_steps_during(call):
    """Runs `call()` in another thread and counts the loop steps this thread makes until it
    returns; a call that held the GIL throughout leaves only a handful."""
    started, finished = threading.Event(), threading.Event()

    def long_call():
        started.set()
        call()
        finished.set()

    thread = threading.Thread(target=long_call)
    thread.start()
    started.wait()
    ticks = 0
    while not finished.is_set():
        ticks += 1
    thread.join()
    return ticks

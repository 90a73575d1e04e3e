"""Shared by tests/ and bench/: in CI (CI set) a skipped test is a failure; SIGINT handled.

Tests of an optional component (an adapter's framework, the browser, qemu-user, matplotlib, Ray)
skip on a machine that lacks it; CI installs every one of them, so there a skip means a missing
install step and must not pass unseen.
"""

import os
import signal

import pytest

# The Ctrl-C tests send SIGINT to child processes. A run started in the background or under
# nohup begins with SIGINT ignored, and an ignored signal stays ignored across exec: the Python
# children would then install no handler and never see the KeyboardInterrupt. A handled signal
# is reset to the default at exec, so handling it here gives every child the usual Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped in CI, where every optional component is installed: {report.longrepr}"
        )

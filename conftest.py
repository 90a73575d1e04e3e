"""Shared by tests/ and bench/: in CI (CI set) a skipped test is a failure.

Tests of an optional component (an adapter's framework, the browser, qemu-user, matplotlib, Ray)
skip on a machine that lacks it; CI installs every one of them, so there a skip means a missing
install step and must not pass unseen.
"""

import os

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every optional component is installed: " \
                          f"{report.longrepr}"

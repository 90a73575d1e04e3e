"""`vikinger` commands run by the tests: in the test's own process for an exit code (the tests
of the commands' refusals: a bad flag, a tampered file), or as a child process (Ctrl-C)."""

import subprocess
import sys

from vikinger_fast import cli


def exit_code(argv):
    """cli.main's return value, or the code of the SystemExit it raised (the message itself for
    a sys.exit(message))."""
    try:
        return cli.main(argv)
    except SystemExit as stop:
        return stop.code


def start_cli(argv, **options):
    """`python -m vikinger_fast.cli ARGV` started, its stdout and stderr piped as text
    (`options`: more of Popen's)."""
    command = [sys.executable, "-m", "vikinger_fast.cli", *argv]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options
    )

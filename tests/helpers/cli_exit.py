"""The exit code of a `vikinger` command run in the test's own process, for the tests of the
commands' refusals (a bad flag, a tampered file: one line on stderr and an exit code)."""

from vikinger_fast import cli


def exit_code(argv):
    """cli.main's return value, or the code of the SystemExit it raised (the message itself for
    a sys.exit(message))."""
    try:
        return cli.main(argv)
    except SystemExit as stop:
        return stop.code

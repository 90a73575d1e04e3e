"""The repository holds sources, never what a command writes: a command's default output folder
(`vikinger arena`'s `arena-results`, `vikinger ladder`'s `ladder`) is ignored by git and nothing
in it is tracked, so a newcomer's first `vikinger arena az random` in a fresh clone starts
instead of finding the folder full (an arena run's folder was once committed by mistake).
"""

import argparse
import pathlib
import shutil
import subprocess

import pytest

from vikinger_fast.cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[2]


def default_output_folders():
    """Every subcommand's default output folder (common.add_out's `numbered` base, or a plain
    `--out` default)."""
    commands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    folders = set()
    for parser in commands.choices.values():
        if parser.get_default("out_numbered") is not None:
            folders.add(parser.get_default("out_numbered"))
        for action in parser._actions:
            if action.dest == "out" and isinstance(action.default, str):
                folders.add(action.default)
    return sorted(folders)


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_arena_and_the_ladder_write_to_default_folders():
    assert {"arena-results", "ladder"} <= set(default_output_folders())


@pytest.mark.parametrize("folder", default_output_folders())
def test_a_default_output_folder_is_ignored_and_untracked(folder):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for numbered in (folder, f"{folder}-2", f"{folder}-17"):  # outputs.numbered_folder's names
        assert git("check-ignore", "-q", f"{numbered}/results.json").returncode == 0, numbered
        assert git("ls-files", "--", numbered).stdout == ""

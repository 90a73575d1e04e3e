#!/usr/bin/env python3
"""Redraw the pictures of docs/img from seeded random games.

* board.png: a position drawn by `vikinger render` (svg.py, PNG through cairosvg);
* viewer.png: the game viewer of a whole game (`vikinger replay --html`) at one step, as
  headless Chromium shows it;
* notebook.png: a Jupyter notebook whose cell ends with a State, executed by nbconvert and
  shown by Chromium (the board comes from State._repr_svg_).

Needs the extras png and browser, nbconvert with ipykernel, and the Debian package chromium.
The PNGs are reduced to 256 colours to stay small. Run after a change to the drawing:

    python scripts/update_pictures.py
"""

import io
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

import nbformat
from PIL import Image

import vikinger_fast as vk
from vikinger_fast import records
from vikinger_fast.pictures import render, viewer

ROOT = pathlib.Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
NOTEBOOK_CELL = """import random
import vikinger_fast as vk

game = vk.Game(num_players=2, special_tiles=True)
state = game.new_initial_state()
rng = random.Random(3)
while state.to_dict()["round"] < 5:
    state.apply_action(rng.choice(state.legal_actions()))
state            # a notebook shows the board: State._repr_svg_()"""


def seeded_game(seed=12):
    state = vk.Game(num_players=3, special_tiles=True).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return records.record_from_state(state, players=["human", "random", "random"], seed=seed)


def save_small(png, path, width=None):
    image = Image.open(io.BytesIO(png) if isinstance(png, bytes) else png).convert("RGB")
    if width and image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def screenshot(chromium, url, size, out):
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--window-size={size}",
            f"--screenshot={out}",
            "--virtual-time-budget=5000",
            url,
        ],
        check=True,
        capture_output=True,
    )


def main():
    chromium = shutil.which("chromium") or sys.exit("needs chromium (apt-get install chromium)")
    record = seeded_game()
    # A late step where a tile is being placed: the picture shows its legal cells.
    step = next(
        k
        for k, state in enumerate(records.states(record, vk))
        if k >= 225 and state.to_dict()["phase"] == "island_cell"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        board = tmp / "board.png"
        render.write_picture(records.replay(record, vk, step=step), board)
        save_small(str(board), IMG / "board.png")
        page = tmp / "viewer.html"
        viewer.write_viewer(record, vk, page)
        screenshot(chromium, f"{page.as_uri()}#step={step}", "1440,1000", tmp / "viewer.png")
        save_small(str(tmp / "viewer.png"), IMG / "viewer.png", width=1080)
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_code_cell(NOTEBOOK_CELL)]
        nbformat.write(notebook, tmp / "board.ipynb")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "jupyter",
                "nbconvert",
                "--to",
                "html",
                "--execute",
                str(tmp / "board.ipynb"),
            ],
            check=True,
            capture_output=True,
        )
        screenshot(chromium, (tmp / "board.html").as_uri(), "1000,830", tmp / "notebook.png")
        save_small(str(tmp / "notebook.png"), IMG / "notebook.png")
    print(f"wrote {', '.join(p.name for p in sorted(IMG.glob('*.png')))} in {IMG}")


if __name__ == "__main__":
    main()

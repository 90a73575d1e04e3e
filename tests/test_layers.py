"""The layers of csrc/ (docs/architecture.md): every folder is a layer, and an include points only
to its own layer or one below it, so the engine reads from the bottom up and no rule depends on
a format, a search or Python."""

import pathlib
import re

CSRC = pathlib.Path(__file__).resolve().parent.parent / "csrc"
# Bottom to top. `play` (the fused playout, rollouts) uses neither `api` nor `formats`; `search`
# uses all of them; `bindings` (the Python module) is the only layer that knows pybind11.
LAYERS = ("base", "rules", "formats", "api", "play", "search", "bindings")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_faults(root):
    """Every source outside a layer folder, every include that is no csrc path or points up a
    layer, every pybind11 include outside bindings/."""
    faults = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".h", ".cc")):
        parts = path.relative_to(root).parts
        if len(parts) != 2 or parts[0] not in LAYERS:
            faults.append(f"{'/'.join(parts)}: not in a layer folder {LAYERS}")
            continue
        rank = LAYERS.index(parts[0])
        text = path.read_text()
        if parts[0] != "bindings" and "pybind11" in text:
            faults.append(f"{'/'.join(parts)}: pybind11 outside bindings/")
        for target in INCLUDE.findall(text):
            target_layer = target.split("/")[0]
            if not (root / target).is_file() or target_layer not in LAYERS:
                faults.append(f"{'/'.join(parts)}: includes {target}, not a csrc layer path")
            elif LAYERS.index(target_layer) > rank:
                faults.append(f"{'/'.join(parts)}: includes {target}, up a layer")
    return faults


def test_csrc_includes_point_down():
    assert layer_faults(CSRC) == []


def test_an_upward_include_is_found(tmp_path):
    for folder in ("search", "rules", "play"):
        (tmp_path / folder).mkdir()
    (tmp_path / "search" / "mcts.h").write_text("int Search();\n")
    (tmp_path / "rules" / "state.h").write_text('#include "search/mcts.h"\n')
    (tmp_path / "play" / "playout.cc").write_text('#include "state.h"\n#include <pybind11/x.h>\n')
    (tmp_path / "loose.h").write_text("")
    assert layer_faults(tmp_path) == [
        "loose.h: not in a layer folder " + str(LAYERS),
        "play/playout.cc: pybind11 outside bindings/",
        "play/playout.cc: includes state.h, not a csrc layer path",
        "rules/state.h: includes search/mcts.h, up a layer",
    ]

"""The layers of the house (docs/architecture.md). csrc/: every folder is a layer, and an include
points only to a layer its "may use" set names, so the engine reads from the bottom up and no
rule depends on a format, a search or Python. The reference (python_ref/vikinger_ref/): the same
layers as modules, the same kind of sets, every import counted (also one inside a function),
and no import loop."""

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"
REFERENCE = ROOT / "python_ref" / "vikinger_ref"

# Each csrc layer and the layers it may use (its own included), bottom to top. `play` (the
# fused playout, rollouts) uses neither `api` nor `formats`; `search` uses all the others;
# `bindings` (the Python module) uses everything and is the only layer that knows pybind11.
MAY_USE = {
    "base": {"base"},
    "rules": {"base", "rules"},
    "formats": {"base", "rules", "formats"},
    "api": {"base", "rules", "formats", "api"},
    "play": {"base", "rules", "play"},
    "search": {"base", "rules", "formats", "api", "play", "search"},
    "bindings": {"base", "rules", "formats", "api", "play", "search", "bindings"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)

# The reference's modules by layer, bottom to top, the twins of csrc's folders; `state` is a
# layer of its own because the reference's State is also the API object, whose to_dict,
# serialize, observation_tensor and text are the formats' (the C++ State gets them in
# bindings/). The evaluation and the pictures give State their methods from above (a
# registration, see evaluation.py and svg.py). `package` is __init__.py, which imports all.
REFERENCE_LAYERS = {
    "base": {"_version", "arguments", "rng"},
    "rules": {
        "components",
        "actions",
        "board",
        "wheel",
        "scoring",
        "trips",
        "auction",
        "specials",
        "equality",
    },
    "formats": {
        "npz",
        "observation",
        "text",
        "serialization",
        "dict_writer",
        "dict_reader",
        "validation",
        "consistency",
    },
    "state": {"state"},
    "api": {"game", "vector_game"},
    "play": {"playouts", "rollout"},
    "search": {
        "evaluation",
        "bots",
        "tree",
        "mcts",
        "solver",
        "trip_ends",
        "puct",
        "gumbel",
        "batched_search",
        "network_features",
        "mlp",
        "network",
        "puct_bot",
        "az_bot",
    },
    "pictures": {"svg", "svg_board", "svg_panel", "svg_pieces"},
    "package": {"__init__"},
}
REFERENCE_MAY_USE = {
    "base": {"base"},
    "rules": {"base", "rules"},
    "formats": {"base", "rules", "formats"},
    "state": {"base", "rules", "formats", "state"},
    "api": {"base", "rules", "formats", "state", "api"},
    "play": {"base", "rules", "state", "api", "play"},
    "search": {"base", "rules", "formats", "state", "api", "play", "search"},
    "pictures": {"base", "rules", "state", "pictures"},
    "package": set(REFERENCE_LAYERS),
}


def layer_faults(root, may_use=MAY_USE):
    """Every source outside a layer folder, every include that is no csrc path or points to a
    layer outside its layer's "may use" set, every pybind11 include outside bindings/."""
    faults = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".h", ".cc")):
        parts = path.relative_to(root).parts
        if len(parts) != 2 or parts[0] not in may_use:
            faults.append(f"{'/'.join(parts)}: not in a layer folder {tuple(may_use)}")
            continue
        text = path.read_text()
        if parts[0] != "bindings" and "pybind11" in text:
            faults.append(f"{'/'.join(parts)}: pybind11 outside bindings/")
        for target in INCLUDE.findall(text):
            target_layer = target.split("/")[0]
            if not (root / target).is_file() or target_layer not in may_use:
                faults.append(f"{'/'.join(parts)}: includes {target}, not a csrc layer path")
            elif target_layer not in may_use[parts[0]]:
                faults.append(
                    f"{'/'.join(parts)}: includes {target}, a layer {parts[0]} may not use"
                )
    return faults


def _type_checking_only(tree):
    """The statements under `if TYPE_CHECKING:`: names for the type checker, never imported when
    the code runs, so no dependency (a formats function may name the State it is handed)."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        for statement in node.body
        for inner in ast.walk(statement)
    }


def module_imports(path):
    """The sibling modules `path` imports (relative imports, at any depth of the file, but for
    the type checker only), and whether it imports vikinger_fast."""
    siblings, fast = set(), False
    tree = ast.parse(path.read_text())
    skip = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                siblings.add(node.module.split(".")[0])
            else:
                siblings.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            fast = fast or (node.module or "").split(".")[0] == "vikinger_fast"
        elif isinstance(node, ast.Import):
            fast = fast or any(a.name.split(".")[0] == "vikinger_fast" for a in node.names)
    return siblings, fast


def reference_faults(root, layers=REFERENCE_LAYERS, may_use=REFERENCE_MAY_USE):
    """Every module in no layer, every import of a layer outside its "may use" set, every
    import of vikinger_fast (the oracle never uses what it checks), every import loop."""
    layer_of = {module: layer for layer, modules in layers.items() for module in modules}
    faults, graph = [], {}
    for path in sorted(root.glob("*.py")):
        module = path.stem
        if module not in layer_of:
            faults.append(f"{path.name}: in no layer")
            continue
        siblings, fast = module_imports(path)
        graph[module] = siblings
        if fast:
            faults.append(f"{path.name}: imports vikinger_fast")
        for target in sorted(siblings):
            if target not in layer_of:
                faults.append(f"{path.name}: imports {target}, in no layer")
            elif layer_of[target] not in may_use[layer_of[module]]:
                faults.append(
                    f"{path.name}: imports {target} ({layer_of[target]}), "
                    f"a layer {layer_of[module]} may not use"
                )
    faults.extend(f"import loop: {' -> '.join(loop)}" for loop in import_loops(graph))
    return faults


def import_loops(graph):
    """One loop per strongly connected group of modules (the package's __init__ aside: it
    imports everything and nothing imports it by name)."""
    loops, done = [], set()
    for start in sorted(graph):
        if start == "__init__" or start in done:
            continue
        stack, path, seen = [(start, iter(sorted(graph[start])))], [start], {start}
        while stack:
            module, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
            elif child == start:
                loops.append(path + [start])
                stack.clear()
            elif child in graph and child not in seen and child != "__init__":
                seen.add(child)
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
        done.add(start)
        if loops and loops[-1][0] == start:
            done.update(loops[-1])
    return loops


def test_csrc_includes_point_down():
    assert layer_faults(CSRC) == []


def test_every_layer_may_use_the_layers_below_it_it_needs_and_no_layer_above():
    # The sets only shrink going down: a layer's set holds no layer named after it.
    order = list(MAY_USE)
    for layer, allowed in MAY_USE.items():
        assert layer in allowed and all(order.index(a) <= order.index(layer) for a in allowed)
    order = list(REFERENCE_MAY_USE)
    for layer, allowed in REFERENCE_MAY_USE.items():
        assert layer in allowed and all(order.index(a) <= order.index(layer) for a in allowed)


def test_an_upward_or_forbidden_include_is_found(tmp_path):
    for folder in ("search", "rules", "play", "formats"):
        (tmp_path / folder).mkdir()
    (tmp_path / "search" / "mcts.h").write_text("int Search();\n")
    (tmp_path / "formats" / "text.h").write_text("int Text();\n")
    (tmp_path / "rules" / "state.h").write_text('#include "search/mcts.h"\n')
    (tmp_path / "play" / "playout.cc").write_text(
        '#include "state.h"\n#include "formats/text.h"\n#include <pybind11/x.h>\n'
    )
    (tmp_path / "loose.h").write_text("")
    assert layer_faults(tmp_path) == [
        "loose.h: not in a layer folder " + str(tuple(MAY_USE)),
        "play/playout.cc: pybind11 outside bindings/",
        "play/playout.cc: includes state.h, not a csrc layer path",
        # below play, but not in its set: the comment's "play uses no format" is checked
        "play/playout.cc: includes formats/text.h, a layer play may not use",
        "rules/state.h: includes search/mcts.h, a layer rules may not use",
    ]


def test_the_reference_imports_point_down_without_a_loop():
    assert reference_faults(REFERENCE) == []


def test_a_forbidden_reference_import_and_a_loop_are_found(tmp_path):
    (tmp_path / "state.py").write_text("def f():\n    from .svg import draw\n")
    (tmp_path / "svg.py").write_text("from .state import State\n")
    (tmp_path / "game.py").write_text("from . import state\nimport vikinger_fast._core\n")
    (tmp_path / "loose.py").write_text("")
    assert reference_faults(tmp_path) == [
        "game.py: imports vikinger_fast",
        "loose.py: in no layer",
        "state.py: imports svg (pictures), a layer state may not use",
        "import loop: state -> svg -> state",
    ]


def test_an_import_for_the_type_checker_only_is_no_dependency(tmp_path):
    (tmp_path / "observation.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .state import State\n"
    )
    (tmp_path / "state.py").write_text("from . import observation\n")
    (tmp_path / "text.py").write_text("if True:\n    from .state import State\n")
    assert reference_faults(tmp_path) == [
        "text.py: imports state (state), a layer formats may not use"
    ]

"""The shipped endgame positions (vikinger_fast.benchmarks.endgame) as states of an engine, for
the tests of the solver in the searches: round-6 decision nodes of real games with every legal
action's exact margin for the mover."""

from vikinger_fast.benchmarks import endgame


def shipped(engine, players, count, max_nodes=None):
    """(state, position) of the first `count` shipped positions of `players` players; with
    `max_nodes`, only those the fast solver finishes within that many nodes (cheap enough for
    the reference)."""
    import vikinger_fast

    found = []
    for position in endgame.by_players(endgame.load_positions(), players, None):
        if max_nodes is not None:
            fast_state = endgame.state_of(vikinger_fast, position)
            if vikinger_fast.solve_endgame(fast_state, max_nodes) is None:
                continue
        found.append((endgame.state_of(engine, position), position))
        if len(found) == count:
            break
    return found


def solved_children(engine, state, position, result, nodes):
    """(action, q, margin) of the root's visited children whose subtree the solver finishes
    within `nodes` (or that end the game) and whose exact margin is not 0: the children whose
    every backup is the exact return."""
    for action, visits, q in zip(result["actions"], result["visits"], result["q"]):
        margin = position["margins"][position["actions"].index(action)]
        child = state.clone()
        child.apply_action(action)
        solvable = child.is_terminal() or (
            not child.is_chance_node() and engine.solve_endgame(child, nodes) is not None
        )
        if visits and solvable and margin != 0:
            yield action, q, margin

"""The C++ core of vikinger_fast: Wikinger (Vikings) for game-AI research.

Same API as the pure-Python reference vikinger_ref (docs/api.md).
"""

from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

CHANCE: int
TERMINAL: int
NUM_DISTINCT_ACTIONS: int
MAX_CHANCE_OUTCOMES: int
PHASES: Tuple[str, ...]
OPTION_NAMES: Tuple[str, ...]

_Int = Union[int, np.integer]

class Game:
    """Wikinger for 2-4 players.

    Game(num_players=2, *, auction=False, draw13=False, offer_by_colour=False,
         weak_boatsmen=False, special_tiles=False)

    The advanced modules (A1-A5, docs/advanced.md) are keyword flags. A non-int num_players or a
    non-bool flag raises TypeError; num_players outside 2..4 raises ValueError.
    """

    def __init__(
        self,
        num_players: int = 2,
        *,
        auction: bool = False,
        draw13: bool = False,
        offer_by_colour: bool = False,
        weak_boatsmen: bool = False,
        special_tiles: bool = False,
    ) -> None: ...
    @property
    def num_players(self) -> int:
        """The number of players, 2..4."""
    @property
    def options(self) -> Dict[str, bool]:
        """The five advanced flags as a dict {name: bool}."""
    def num_distinct_actions(self) -> int:
        """The size of the decision id space (2036)."""
    def max_chance_outcomes(self) -> int:
        """The size of the chance id space (30)."""
    def observation_shape(self) -> Tuple[int]:
        """The shape of observation_tensor(): (294 + 1545 n + 80 + 22 n,)."""
    def new_initial_state(self) -> State:
        """The state before the first tile is revealed (round 1, a chance node)."""
    def state_from_dict(self, d: Dict[str, Any]) -> State:
        """A state from a dict of docs/state.md, checked completely.

        TypeError when d is not a dict; ValueError naming the first problem otherwise.
        """
    def deserialize_state(self, data: Union[bytes, bytearray, memoryview]) -> State:
        """A state from the bytes of State.serialize().

        TypeError for non-bytes; ValueError for bad bytes or a state state_from_dict would refuse.
        """
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...
    def __reduce__(self) -> Tuple[Any, Tuple[int, int]]: ...

class State:
    """One position of a game, with its history.

    Made by Game.new_initial_state(), Game.state_from_dict() or Game.deserialize_state().
    """

    def get_game(self) -> Game:
        """The game this state belongs to."""
    def current_player(self) -> int:
        """The player to move 0..n-1, CHANCE (-1) or TERMINAL (-4)."""
    def is_chance_node(self) -> bool:
        """True when the next action is a chance outcome."""
    def is_terminal(self) -> bool:
        """True once the game is over."""
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """[(chance id, count / total)] sorted by id; [] at decision and terminal nodes."""
    def legal_actions(self) -> List[int]:
        """The sorted legal ids: chance ids at chance nodes, [] at the end."""
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """numpy bool array of length num_distinct_actions(), True at legal ids."""
    def apply_action(self, action: _Int) -> None:
        """Apply a decision or chance id, then every forced decision.

        TypeError unless action is an int (Python or numpy; bool refused); ValueError when the game
        is over or the action is not legal now. The state is unchanged after an error.
        """
    def apply_random_chance(self, rng: Union[_Int, np.random.Generator]) -> int:
        """Apply one chance outcome drawn with rng; returns its id.

        rng is a numpy.random.Generator (u = rng.random()) or an int seed (u from splitmix64). ValueError
        at a decision node; TypeError for another rng type.
        """
    def action_to_string(self, action: _Int) -> str:
        """The string of an id in the space of the current node (chance or decision)."""
    def string_to_action(self, text: str) -> int:
        """The id of an action string of either space."""
    def clone(self) -> State:
        """An independent copy."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def history(self) -> List[int]:
        """Every action applied by apply_action / apply_random_chance (no forced ones)."""
    def scores(self) -> List[int]:
        """Fame per player (final once terminal)."""
    def gold(self) -> List[int]:
        """Gold per player."""
    def returns(self) -> List[float]:
        """At the end 1 shared equally by the winners (B8.9), 0 for the others; zeros
        before."""
    def observation_tensor(self, player: _Int) -> npt.NDArray[np.float32]:
        """numpy float32 array of shape observation_shape(), as seen by player."""
    def threatened_mask(self, player: _Int) -> npt.NDArray[np.bool_]:
        """numpy bool (5, 64): [r-1, c-1] is True when a Viking of player on row r, column c
        would be threatened (B7.0: a ship of the column reaching row r, not repelled)."""
    def large_scoring_gains(self) -> List[Tuple[int, int]]:
        """[(fame, gold)] per player: what B7.2 steps 2-6 would pay if the large scoring were
        scored now, without further boatsman trips; the state is not changed."""
    def final_scoring_gains(self) -> List[Tuple[int, int]]:
        """[(fame, gold)] per player: what the final scoring (B8) would change if the game
        ended now, on the boards as they stand; zeros once the game is over. The state is not changed."""
    def pending_scoring_gains(self) -> List[Tuple[int, int]]:
        """[(fame, gold)] per player: what the scoring that ends this round (B7.1 after rounds
        1, 3, 5; B7.2 steps 2-6 after 2, 4, 6, without further trips) would pay the players it has not
        scored yet; zeros once the game is over."""
    def to_dict(self) -> Dict[str, Any]:
        """The canonical dict of docs/state.md."""
    def serialize(self) -> bytes:
        """The bytes of docs/state.md."""
    def hash_key(self) -> int:
        """64-bit hash of the position (history excluded)."""
    def __str__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]: ...

def _state_from_bytes(data: bytes) -> State:
    """Unpickle a State from its serialize() bytes."""

def _game_from_data(num_players: _Int, options: _Int) -> Game:
    """Unpickle a Game: 2..4 players and the option bits of docs/state.md (0..31), checked."""

def _vector_game_from_data(
    game: Game, positions: Any, streams: Any, lengths: Any, *args: Any
) -> VectorGame: ...
def _random_bot_from_data(game: Game, seed: _Int, stream: _Int) -> RandomBot: ...
def _greedy_bot_from_data(game: Game, seed: _Int, stream: _Int) -> GreedyBot: ...
def _mcts_bot_from_data(
    game: Game, seed: _Int, budget: Dict[str, Any], searches: _Int
) -> MCTSBot: ...
def _rollout_position(
    game: Game, seed: _Int, policy: str = "random", bit_select: str = "auto"
) -> bytes:
    """The position bytes (docs/state.md, no history) at the end of rollout game seed.

    For tests: the fused playout of policy "random" must end every game exactly where the state
    machine of "random_generic" does, with either way of finding the k-th legal action
    (bit_select "table", or "pdep" on a CPU with BMI2; "auto" is what rollouts use).
    """

def _playout_position(state: State, seed: _Int, fused: bool = True) -> bytes:
    """For tests: the position bytes (docs/state.md, no history) where playout seed from
    state ends, with the hand-over to the fused playout (fused=True) or without it."""

def _bit_select() -> Dict[str, Any]:
    """How the fused playout finds the k-th legal action on this CPU: {"auto": the way rollouts
    use, "available": the ways _rollout_position can be asked for}."""

def _trip_table_mismatches() -> int:
    """For tests: the inputs (counts up to 9, boatsmen up to 13) where the table that answers
    B7.2.1a without A4 differs from the loop it is made from; 0 when they agree everywhere."""

def rollouts(
    game: Game, num_games: _Int, seed: _Int, threads: _Int = 1, policy: str = "random"
) -> Dict[str, np.ndarray]:
    """Play num_games random games in C++ (GIL released); game i uses seed seed + i.

    policy "random" plays every game, with or without the advanced modules, by a fused playout;
    "random_generic" goes through the state machine and builds the legal list at every decision. Both play the same games, whatever the number of threads.

    Returns a dict of numpy arrays: "scores" (num_games, n) int32 final Fame, "gold" (num_games, n)
    int32, "returns" (num_games, n) float64 win shares, "length" (num_games,) int32 actions applied
    (chance included). The same games as vikinger_ref.rollouts.
    """

class VectorGame:
    """A batch of games stepped together, for RL loops.

    VectorGame(game, batch_size, seed): environment i samples chance from the splitmix64 stream of
    seed + i and always waits at a decision node; finished games are recorded in the final_* arrays
    and restarted at once. The arrays are allocated once and returned as views: copy what you keep.
    """

    def __init__(self, game: Game, batch_size: _Int, seed: _Int) -> None: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    @property
    def batch_size(self) -> int: ...
    def get_game(self) -> Game: ...
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """(batch, num_distinct_actions) bool: the legal decisions, rewritten in place."""
    def observation_tensor(self) -> npt.NDArray[np.float32]:
        """(batch, observation size) float32: row i seen by env i's player to move."""
    def current_player(self) -> npt.NDArray[np.int32]:
        """(batch,) int32: the player to move in each environment."""
    def step(
        self, actions: npt.ArrayLike, where: Optional[npt.ArrayLike] = None
    ) -> npt.NDArray[np.bool_]:
        """Apply actions[i] in environment i (GIL released); returns done.

        where: None (every environment) or a bool array of shape (batch,): only the environments where it
        is True move, the others stay as they are (their actions unchecked, done False).
        TypeError unless actions are integers (bool refused) and where is bool; ValueError for a wrong
        shape or an action not legal in its environment, and then nothing has changed.
        KeyboardInterrupt (Ctrl-C) puts every environment back as it was.
        """
    def play_random(
        self,
        where: npt.ArrayLike,
        streams: npt.NDArray[np.uint64],
        observer: Optional[npt.ArrayLike] = None,
    ) -> npt.NDArray[np.bool_]:
        """RandomBot's move in the environments where `where` is True (GIL released); returns done.

        Environment i plays legal[floor(u * len(legal))], u the next uniform of the splitmix64 stream
        whose state is streams[i] (a uint64 array, advanced in place), as RandomBot(game, seed) with
        streams[i] = seed does; then chance as in step. observer (None: the mover) names per environment
        the player whose view of a finished game goes to final_observation. KeyboardInterrupt changes
        nothing, the streams neither.
        """
    def state(self, env: _Int) -> State:
        """A copy of environment env's state (a decision node; no history): for bots that
        play some seats of the batch."""
    @property
    def done(self) -> npt.NDArray[np.bool_]: ...
    @property
    def final_scores(self) -> npt.NDArray[np.int32]: ...
    @property
    def final_gold(self) -> npt.NDArray[np.int32]: ...
    @property
    def final_returns(self) -> npt.NDArray[np.float64]: ...
    @property
    def final_length(self) -> npt.NDArray[np.int32]: ...
    @property
    def final_observation(self) -> npt.NDArray[np.float32]: ...

# --- search (docs/search.md) -------------------------------------------------------------------

def playouts(
    state: State, num_playouts: _Int, seed: _Int, threads: _Int = 1
) -> Dict[str, np.ndarray]:
    """Play num_playouts random playouts from state in C++ (GIL released).

    Playout i starts from its own copy of state and uses stream seed + i with the uniform rule of
    rollouts, so from the initial state it plays rollout game seed + i. Returns a dict of numpy arrays:
    "scores", "gold" (num_playouts, n) int32, "returns" (num_playouts, n) float64, "length"
    (num_playouts,) int32: the actions each playout applied (chance included).
    """

def playouts_batch(
    states: Sequence[State], num_playouts: _Int, seed: _Int, threads: _Int = 1
) -> Dict[str, np.ndarray]:
    """playouts for each state of a list (one game): playout i of states[j] uses stream
    seed + j * num_playouts + i. Arrays of shape (len(states), num_playouts, n) and, for "length",
    (len(states), num_playouts)."""

def evaluate(state: State) -> List[float]:
    """The heuristic value of state per player, in [0, 1] and summing to 1 (docs/search.md):
    the returns once terminal, else a softmax of the Fame each player would have after the round's
    pending scoring and the final scoring."""

def solve_endgame(
    state: State, max_nodes: _Int, max_memory: Optional[_Int] = None, trips: str = "counts"
) -> Optional[Dict[str, Any]]:
    """The exact endgame under best play from a decision node of round 6 (docs/search.md):
    {"action": the best action, "margins": each player's 64 * Fame + gold minus the best other
    player's, "nodes": nodes searched}, or None when max_nodes did not suffice. The table holds at
    most max_memory bytes (80 a position; default a quarter of the memory or of RLIMIT_AS): beyond
    it, MemoryError. trips: how two players' last scoring is listed, "counts" (the best tiles for
    each end of counts) or "tiles" (every placement: the same values in more nodes, the solver the
    benchmark files were built with)."""

def solve_endgame_result(
    state: State, max_nodes: _Int, max_memory: Optional[_Int] = None, trips: str = "counts"
) -> Optional[Dict[str, Any]]:
    """Who wins the endgame under best play, not by how much (two players; docs/search.md):
    {"action": an action of the best result for the player to move, "results": the sign of each
    player's margin (1 a win, 0 a shared win, -1 a loss), "nodes": nodes searched}, or None when
    max_nodes did not suffice. Alpha-beta with the window (-1, 1): often far fewer nodes than
    solve_endgame. max_memory and trips as solve_endgame's."""

class EndgameSolver:
    """One solver table kept across solves of a
    game's positions (docs/search.md "A table kept across solves"), as a chess engine keeps its
    transposition table between moves.

    EndgameSolver(game, max_memory=None, trips="counts"): solve(state, max_nodes) and
    solve_result(state, max_nodes) are solve_endgame's and solve_endgame_result's, the same values,
    from the entries earlier solves left (exact values, bounds, a scorer's listed trips): "nodes"
    counts this call's, max_nodes bounds this call. The entries stay when a solve gives up, is
    interrupted or reaches max_memory (each a finished result); clear() drops them; entries counts
    them (80 bytes each against max_memory). Equal to vikinger_ref.EndgameSolver call for call.
    """
    def __init__(
        self, game: Game, max_memory: Optional[_Int] = None, trips: str = "counts"
    ) -> None: ...
    def solve(self, state: State, max_nodes: _Int) -> Optional[Dict[str, Any]]:
        """solve_endgame(state, max_nodes) from the entries kept."""
    def solve_result(self, state: State, max_nodes: _Int) -> Optional[Dict[str, Any]]:
        """solve_endgame_result(state, max_nodes) from the entries kept."""
    def clear(self) -> None:
        """Drops every entry."""
    @property
    def entries(self) -> int:
        """The positions and list entries kept, each counted as 80 bytes of max_memory."""
    def __reduce__(self) -> NoReturn: ...
    def __copy__(self) -> NoReturn: ...
    def __deepcopy__(self, memo: Any) -> NoReturn: ...

class RandomBot:
    """RandomBot(game, seed): a uniformly random legal
    action, legal[floor(u * len(legal))] with u the next uniform of splitmix64(seed)."""
    def __init__(self, game: Game, seed: _Int) -> None: ...
    def step(self, state: State) -> int: ...
    def policy(self, state: State) -> List[Tuple[int, float]]: ...
    def restart(self) -> None: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

class GreedyBot:
    """GreedyBot(game, seed): the legal action whose
    successor has the highest evaluate() value for the mover; exact ties broken by
    splitmix64(seed)."""
    def __init__(self, game: Game, seed: _Int) -> None: ...
    def step(self, state: State) -> int: ...
    def policy(self, state: State) -> List[Tuple[int, float]]: ...
    def restart(self) -> None: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

class MCTSBot:
    """UCT search over decision nodes (docs/search.md).

    MCTSBot(game, seed, *, iterations=None, max_time=None, uct_c=1.4, leaf="playout", threads=1,
    solver_nodes=0): a budget of iterations and/or seconds per move; leaf "playout" (a random
    playout) or "evaluation" (evaluate()); threads independent searches whose root visits are summed;
    solver_nodes > 0 lets the endgame solver decide in round 6 when it finishes within that many
    nodes. The same seed, iterations and threads give the same visits as vikinger_ref.MCTSBot.
    """
    def __init__(
        self,
        game: Game,
        seed: _Int,
        *,
        iterations: Optional[_Int] = None,
        max_time: Optional[float] = None,
        uct_c: float = 1.4,
        leaf: str = "playout",
        threads: _Int = 1,
        solver_nodes: _Int = 0,
    ) -> None: ...
    def step(self, state: State) -> int:
        """Search (GIL released), then the most visited action (the lowest id on a tie)."""
    def policy(self, state: State) -> List[Tuple[int, float]]:
        """Search, then [(action, visit share)] over the legal actions."""
    def search(self, state: State) -> Dict[str, Any]:
        """Search, then {"actions", "visits" (root visits, merged over threads), "iterations",
        "solved"}."""
    def restart(self) -> None:
        """Back to the first search's streams."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

class Network:
    """A vikinger-mlp/1 network in integer arithmetic,
    evaluated inside the search (docs/neural.md "The integer network").

    Network(mlp): the network of a loaded MLPEvaluator (its arrays, checked by the MLP's own checks),
    for the MLP's game; weights scaled by powers of two and rounded to int16, the same numbers as
    vikinger_ref.Network. PuctSearch.run(network) and run_batch(network) evaluate their leaves with it
    without the GIL.
    """
    def __init__(self, mlp: Any) -> None: ...
    def evaluate(self, state: State) -> Tuple[np.ndarray, np.ndarray]:
        """(logits float32[k], values float32[num_players]) of a decision node: the logits of
        its k legal actions (in legal_actions() order) and the values relative to the player to move."""
    def features(self, state: State) -> Tuple[np.ndarray, np.ndarray]:
        """(indices int32[m], values int32[m]): the non-zero entries of the network's
        features (docs/neural.md "Features") of a decision node for the player to move, by index, as exact
        integers (the observation tensor's float32 rounds gold and Fame above 2^24): the first layer's
        input."""
    def scores(self, state: State) -> np.ndarray:
        """The score head's outputs float32[num_players] of a decision node, in [-1, 1],
        relative to the player to move: each seat's squashed final margin (docs/learning.md "Score-aware
        values"). ValueError for weights without a score head."""
    def get_game(self) -> Game:
        """The game the network plays (the MLP's)."""
    @property
    def shifts(self) -> List[int]:
        """The scale exponents s (weights times 2^s) of the hidden
        layers, the policy head, the value head and, when the network has one, the score head."""
    @property
    def has_score_head(self) -> bool:
        """Whether the weights have a score head (score_w, score_b)."""

class PuctSearch:
    """PUCT searches of many states, their leaves
    batched for an evaluator (docs/neural.md).

    PuctSearch(states, *, simulations, seed=0, c_init=1.25, c_base=0.0, dirichlet_alpha=0.0,
    dirichlet_fraction=0.25, virtual_loss=1, gumbel=False, solver_nodes=0, score_utility=0.0,
    score_scale=0.0): one
    tree per state (decision nodes of one game), each searching `simulations` leaves per search.
    gumbel=True puts the Gumbel MuZero root (Gumbel-top-k, sequential halving) on every tree; a dict of
    some of its settings, {"max_considered": 16, "c_visit": 50.0, "c_scale": 1.0}, does so with them.
    solver_nodes > 0 solves every new round-6 leaf (not the root) within that many nodes and backs up
    the exact returns of those solved (docs/neural.md "The solver in the search"). score_utility = w
    in [0, 1] backs up (1 - w) * win share + w * (score + 1) / 2 per seat at terminal nodes, solved
    leaves, playouts and a Network's leaves (which must have a score head); an evaluator's values are
    taken as given. The score is tanh(margin / 512), or with score_scale = D > 0 (Fame)
    tanh((margin - centre) / (64 * D)), centre the tree root's projected margin, a Network leaf's margin
    read from its score head; such a tree starts anew at advance (docs/neural.md "Score-aware values"). The same arguments and evaluator outputs give
    the same trees as vikinger_ref.PuctSearch.
    """
    def __init__(
        self,
        states: Sequence[State],
        *,
        simulations: _Int,
        seed: _Int = 0,
        c_init: float = 1.25,
        c_base: float = 0.0,
        dirichlet_alpha: float = 0.0,
        dirichlet_fraction: float = 0.25,
        virtual_loss: _Int = 1,
        gumbel: Union[bool, Dict[str, float]] = False,
        solver_nodes: _Int = 0,
        score_utility: float = 0.0,
        score_scale: float = 0.0,
    ) -> None: ...
    def gather(self, max_batch: _Int = 256) -> Tuple[np.ndarray, np.ndarray]:
        """Descend the trees (GIL released) until max_batch descents ended (at a new leaf or a
        terminal node, backed up at once) or no tree can go on; returns (observations float32[B,
        observation_size], legal bool[B, NUM_DISTINCT_ACTIONS]) of the B new leaves, written by the C++
        in place (no copy; the buffers of a batch are reused only once nothing refers to them). B is 0
        once every search is done."""
    def backup(self, logits: np.ndarray, values: np.ndarray) -> None:
        """Back up the evaluation of the gathered leaves: logits float32[B,
        NUM_DISTINCT_ACTIONS] (only legal entries read; they must be finite) and values float32[B,
        num_players], finite, relative to the player to move at the leaf."""
    def cancel(self) -> None:
        """Undo the descents of the gathered leaves; the trees are as before the gather."""
    def run(
        self,
        evaluator: Union[
            Network, Callable[[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]
        ],
        batch_size: _Int = 256,
        max_time: Optional[float] = None,
        *,
        playouts: _Int = 0,
        playout_weight: float = 0.5,
        playout_seed: _Int = 0,
    ) -> None:
        """gather, evaluator(observations, legal) -> (logits, values), backup, until every
        search is done, or with max_time (seconds > 0) until no batch starts because that time has
        passed (the searches may then be unfinished: done is False). An exception from the evaluator (or
        Ctrl-C) undoes the batch and propagates.
        With a Network as the evaluator the search evaluates its leaves itself, without the GIL
        (docs/neural.md "The integer network"). With playouts > 0 a leaf's values are (1 -
        playout_weight) * the evaluator's + playout_weight * the mean returns of that many random
        playouts (docs/neural.md "Mixed leaf values"): a batch of B leaves uses playout_values(playouts,
        seed), the next seed + B * playouts, from playout_seed on."""
    def run_batch(
        self,
        network: Network,
        batch_size: _Int = 256,
        *,
        playouts: _Int = 0,
        playout_weight: float = 0.5,
        playout_seed: _Int = 0,
    ) -> int:
        """One gather of up to batch_size descents, the Network's evaluation of its leaves and
        their backup, without the GIL; returns the number of leaves evaluated. With playouts > 0 a leaf's
        values are (1 - playout_weight) * the network's + playout_weight * playout_values(playouts,
        playout_seed), in float32 as run mixes them."""
    def heuristic_values(self) -> np.ndarray:
        """evaluate() of the gathered leaves as float32[B, num_players], relative to the
        player to move at each leaf: the values of the heuristic evaluator (docs/neural.md)."""
    def playout_values(self, count: _Int, seed: _Int) -> np.ndarray:
        """The mean returns of count (1..4096) random playouts from each gathered leaf as
        float32[B, num_players], relative to the player to move at each leaf; playout j of row r uses
        stream seed + r * count + j (docs/neural.md "Mixed leaf values"). With score_utility > 0 each
        playout's returns are blended with its final margins (docs/neural.md "Score-aware values")."""
    def results(self) -> List[Dict[str, Any]]:
        """[{"actions", "visits", "priors", "q", "value", "improved_policy", "network_value",
        "selected"}] per root: the root's edges in action order (priors as selection used them, q the
        mover's mean value), the mean value per player over the root's visits, the completed-Q improved
        policy, the evaluator's value of the root for its mover, and the action to play (Gumbel: the
        last survivor of sequential halving; PUCT: the most visited, the lowest id on a tie)."""
    def result_arrays(self) -> Dict[str, np.ndarray]:
        """The results of every root as arrays over the action space (A =
        NUM_DISTINCT_ACTIONS, R roots, 0 at the actions not legal at a root): {"visits" int64[R, A],
        "priors", "q", "improved_policy" float64[R, A], "legal" bool[R, A], "value" float64[R,
        num_players], "network_value" float64[R], "selected" int64[R]}, the entries of results()."""
    def new_search(self) -> None:
        """Start the next search of every tree: budgets from 0, fresh root noise."""
    def advance(self, index: _Int, state: State) -> bool:
        """Move tree index to state and start its next search: its subtree is kept when state
        is a child of the root (True), else the tree starts anew (False)."""
    @property
    def done(self) -> bool:
        """True once every tree has spent its budget and nothing is pending."""
    @property
    def pending(self) -> int:
        """The number of gathered leaves waiting for backup."""
    @property
    def observation_size(self) -> int:
        """The width of an observation row."""

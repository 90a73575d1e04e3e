// Search and bots in the Python module (docs/search.md): playouts from any state, the scoring
// questions and evaluation of unfinished games, the endgame solver, RandomBot, GreedyBot and
// MCTSBot. Long calls release the GIL, poll for Ctrl-C and lock their object (bindings/helpers.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/game.h"
#include "bindings/helpers.h"
#include "formats/serialization.h"
#include "play/playouts.h"
#include "search/bots.h"
#include "search/evaluation.h"
#include "search/mcts.h"
#include "search/solver.h"

namespace vikinger {
namespace {

// Plays `count` playouts from each position into arrays of shape prefix + (n,).
py::dict RunPlayouts(const std::vector<Position>& starts, int64_t count, uint64_t seed, int threads,
                     std::vector<py::ssize_t> prefix) {
  const int64_t n = starts[0].num_players;
  std::vector<py::ssize_t> with_players = prefix;
  with_players.push_back(n);
  py::array_t<int32_t> scores(with_players);
  py::array_t<int32_t> gold(with_players);
  py::array_t<double> returns(with_players);
  py::array_t<int32_t> length(prefix);
  const RolloutArrays out{scores.mutable_data(), gold.mutable_data(), returns.mutable_data(),
                          length.mutable_data()};
  std::vector<const Position*> pointers;
  for (const Position& p : starts) pointers.push_back(&p);
  Interrupt interrupt(PythonSignalPoll());
  {
    py::gil_scoped_release release;
    PlayRandomPlayouts(pointers.data(), static_cast<int64_t>(starts.size()), count, seed, threads,
                       &interrupt, out);
  }
  ThrowIfInterrupted(interrupt);
  return py::dict(py::arg("scores") = scores, py::arg("gold") = gold, py::arg("returns") = returns,
                  py::arg("length") = length);
}

py::dict Playouts(py::handle state, py::handle num_playouts, py::handle seed, py::handle threads) {
  const State& s = StateArg(state);
  RequireInts({{"num_playouts", num_playouts}, {"seed", seed}, {"threads", threads}});
  const int64_t count = CountArg(num_playouts, "num_playouts");
  return RunPlayouts({s.position}, count, Seed(seed), ThreadsArg(threads), {count});
}

py::dict PlayoutsBatch(py::handle states, py::handle num_playouts, py::handle seed,
                       py::handle threads) {
  if (!py::isinstance<py::sequence>(states) || py::isinstance<py::str>(states)) {
    throw py::type_error("states must be a sequence of State, not " + TypeName(states));
  }
  RequireInts({{"num_playouts", num_playouts}, {"seed", seed}, {"threads", threads}});
  const int64_t count = CountArg(num_playouts, "num_playouts");
  std::vector<Position> starts;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(states)) {
    starts.push_back(StateArg(item, "every item of states").position);
    const Position& p = starts.back();
    if (p.num_players != starts[0].num_players || p.options != starts[0].options) {
      throw py::value_error("states must all be of one game");
    }
  }
  if (starts.empty()) throw py::value_error("states must not be empty");
  const auto m = static_cast<py::ssize_t>(starts.size());
  return RunPlayouts(starts, count, Seed(seed), ThreadsArg(threads), {m, count});
}

// The position bytes (docs/state.md, no history) where playout `seed` from `state` ends.
py::bytes PlayoutPosition(py::handle state, py::handle seed, bool fused) {
  const Position start = StateArg(state).position;
  RequireInts({{"seed", seed}});
  Position final_position;
  PlayRandomPlayout(start, Seed(seed), fused, &final_position);
  uint8_t bytes[kMaxPositionBytes];
  const int size = PositionBytes(final_position, bytes);
  return py::bytes(reinterpret_cast<const char*>(bytes), size);
}

using Gains = std::vector<std::pair<int, int>>;

Gains GainList(const State& state, void (*question)(const Position&, int*, int*)) {
  int fame[kMaxPlayers];
  int gold[kMaxPlayers];
  question(state.position, fame, gold);
  Gains gains;
  for (int i = 0; i < state.position.num_players; ++i) gains.emplace_back(fame[i], gold[i]);
  return gains;
}

std::vector<double> EvaluateState(py::handle state) {
  const Position& p = StateArg(state).position;
  double values[kMaxPlayers];
  Evaluate(p, values);
  return std::vector<double>(values, values + p.num_players);
}

// The reference's words (solver.py): the bound, and what to change.
std::string OutOfMemoryMessage(int64_t max_memory) {
  return "solve_endgame: the table reached max_memory (" + std::to_string(max_memory) + " bytes, " +
         std::to_string(max_memory / kSolverEntryBytes) +
         " positions); give a larger max_memory or a smaller max_nodes";
}

int64_t BudgetArg(py::handle max_nodes) {
  RequireInts({{"max_nodes", max_nodes}});
  const int64_t budget = CountArg(max_nodes, "max_nodes");
  if (budget == 0) throw py::value_error("max_nodes must be > 0, not 0");
  return budget;
}

int64_t MemoryArg(py::handle max_memory) {
  if (max_memory.is_none()) return DefaultSolverMemory();
  RequireInts({{"max_memory", max_memory}});
  const int64_t memory = CountArg(max_memory, "max_memory");
  if (memory < kSolverEntryBytes) {
    throw py::value_error("max_memory must be >= " + std::to_string(kSolverEntryBytes) +
                          " (one table entry), not " + Text(max_memory));
  }
  return memory;
}

// by_counts of trips: "counts" or "tiles".
bool TripsArg(py::handle trips) {
  if (!py::isinstance<py::str>(trips)) {
    throw py::type_error("trips must be a str, not " +
                         py::str(py::type::handle_of(trips).attr("__name__")).cast<std::string>());
  }
  const std::string listing = trips.cast<std::string>();
  if (listing != "counts" && listing != "tiles") {
    throw py::value_error("trips must be 'counts' or 'tiles', not " +
                          py::repr(trips).cast<std::string>());
  }
  return listing == "counts";
}

// A decision node the solver takes; `exact`: the call that solves more players.
void CheckSolverPosition(const Position& p, const std::string& name, const char* exact,
                         bool result_only) {
  if (!NoChanceAhead(p) || IsTerminal(p)) {
    throw py::value_error(name + " needs a decision node of round 6 with its offer on the wheel");
  }
  if (result_only && p.num_players != 2) {
    throw py::value_error(name + " is for two players (max^n has no window): use " + exact);
  }
}

// The solve without the GIL, then its dict (None when it gave up).
py::object SolveInto(EndgameSolver& solver, const Position& p, int64_t budget, int64_t memory,
                     bool result_only) {
  SolverResult result;
  Interrupt interrupt(PythonSignalPoll());
  SolveStatus status;
  {
    py::gil_scoped_release release;
    status = solver.Solve(p, budget, &interrupt, &result, result_only);
  }
  ThrowIfInterrupted(interrupt);
  if (status == SolveStatus::kOutOfMemory) {
    PyErr_SetString(PyExc_MemoryError, OutOfMemoryMessage(memory).c_str());
    throw py::error_already_set();
  }
  if (status == SolveStatus::kGaveUp) return py::none();
  py::list margins;
  for (int i = 0; i < p.num_players; ++i) margins.append(result.margins[i]);
  return py::dict(py::arg("action") = result.best_action,
                  py::arg(result_only ? "results" : "margins") = margins,
                  py::arg("nodes") = result.nodes);
}

// solve_endgame and solve_endgame_result: the checks, then a solve on a new table.
py::object SolveChecked(py::handle state, py::handle max_nodes, py::handle max_memory,
                        py::handle trips, bool result_only) {
  const State& s = StateArg(state);
  const int64_t budget = BudgetArg(max_nodes);
  const int64_t memory = MemoryArg(max_memory);
  const bool by_counts = TripsArg(trips);
  CheckSolverPosition(s.position, result_only ? "solve_endgame_result" : "solve_endgame",
                      "solve_endgame", result_only);
  const Position p = s.position;
  EndgameSolver solver(memory, by_counts);
  return SolveInto(solver, p, budget, memory, result_only);
}

py::object SolveEndgameState(py::handle state, py::handle max_nodes, py::handle max_memory,
                             py::handle trips) {
  return SolveChecked(state, max_nodes, max_memory, trips, false);
}

py::object SolveEndgameResult(py::handle state, py::handle max_nodes, py::handle max_memory,
                              py::handle trips) {
  return SolveChecked(state, max_nodes, max_memory, trips, true);
}

// --- EndgameSolver: one table kept across solves (solver.py's EndgameSolver) -------------------

constexpr const char* kNotCopied =
    "an EndgameSolver is not pickled or copied (its table is this process's cache): make a new "
    "one";

struct PyEndgameSolver {
  Game game;
  int64_t max_memory;
  EndgameSolver solver;
  std::mutex mutex;
};

py::object SolveKept(PyEndgameSolver& self, py::handle state, py::handle max_nodes,
                     bool result_only) {
  const std::string name = result_only ? "EndgameSolver.solve_result" : "EndgameSolver.solve";
  const Position p = StateArg(state).position;
  const Game game{p.num_players, p.options};
  if (!(game == self.game)) {
    throw py::value_error(name + " got a state of " + GameRepr(game) + ", the solver plays " +
                          GameRepr(self.game));
  }
  const int64_t budget = BudgetArg(max_nodes);
  CheckSolverPosition(p, name, "EndgameSolver.solve", result_only);
  ObjectLock lock(self.mutex);
  return SolveInto(self.solver, p, budget, self.max_memory, result_only);
}

py::list PolicyList(const ActionPolicy& policy) {
  py::list out;
  for (const auto& [action, share] : policy) out.append(py::make_tuple(action, share));
  return out;
}

// --- MCTSBot ----------------------------------------------------------------------------------

struct PyMcts {
  MctsBot bot;
  std::mutex mutex;
};

MctsConfig MctsConfigOf(py::handle iterations, py::handle max_time, py::handle uct_c,
                        py::handle leaf, py::handle threads, py::handle solver_nodes) {
  MctsConfig config;
  if (!iterations.is_none()) {
    RequireInts({{"iterations", iterations}});
    bool huge;
    config.iterations = IndexValue(iterations, "iterations", &huge);
    if (config.iterations <= 0) {
      throw py::value_error("iterations must be > 0, not " + Text(iterations));
    }
    if (huge) throw py::value_error("iterations " + Text(iterations) + " is too large");
  }
  if (!max_time.is_none()) config.max_time = SecondsArg(max_time, "max_time");
  if (iterations.is_none() && max_time.is_none()) {
    throw py::value_error("MCTSBot needs a budget: iterations or max_time");
  }
  if (iterations.is_none() && config.max_time >= kMaxSeconds) {
    throw py::value_error(
        "MCTSBot needs a finite budget: iterations, or max_time below 1e9 seconds, not " +
        Text(max_time));
  }
  config.uct_c = RealArg(uct_c, "uct_c");
  if (!(config.uct_c >= 0.0)) throw py::value_error("uct_c must be >= 0, not " + Text(uct_c));
  if (std::isinf(config.uct_c)) throw py::value_error("uct_c must be finite, not " + Text(uct_c));
  if (!PyUnicode_Check(leaf.ptr())) {
    throw py::type_error("leaf must be a str, not " + TypeName(leaf));
  }
  const std::string leaf_name = leaf.cast<std::string>();
  if (leaf_name != "playout" && leaf_name != "evaluation") {
    throw py::value_error("leaf must be one of playout, evaluation, not " +
                          py::repr(leaf).cast<std::string>());
  }
  config.leaf = leaf_name == "playout" ? Leaf::kPlayout : Leaf::kEvaluation;
  RequireInts({{"threads", threads}, {"solver_nodes", solver_nodes}});
  config.threads = ThreadsArg(threads);
  config.solver_nodes = CountArg(solver_nodes, "solver_nodes");
  return config;
}

SearchResult RunSearch(PyMcts& self, py::handle state, const char* method) {
  ObjectLock lock(self.mutex);
  const Position p = StateArg(state).position;
  CheckDecisionNode(self.bot.game(), p, method);
  SearchResult result;
  Interrupt interrupt(PythonSignalPoll());
  {
    py::gil_scoped_release release;
    self.bot.Search(p, &interrupt, &result);
  }
  ThrowIfInterrupted(interrupt);
  return result;
}

py::list VisitShares(const SearchResult& result) {
  int64_t total = 0;
  for (int64_t v : result.visits) total += v;
  py::list out;
  for (size_t i = 0; i < result.actions.size(); ++i) {
    out.append(py::make_tuple(result.actions[i],
                              static_cast<double>(result.visits[i]) / static_cast<double>(total)));
  }
  return out;
}

// --- pickling the bots (docs/search.md "Bots"): plain data rebuilt by module-level functions
// that check it as the constructors do, so a pickle holds no code.

// The rebuild functions are plain Python functions of vikinger_fast/safety/rebuild.py, which a
// pickle names by module and name (a function of this module would pickle as a builtins call);
// the game travels as its player count and option bits.
py::object Rebuild(const char* name) {
  return py::module_::import("vikinger_fast.safety.rebuild").attr(name);
}

template <typename Bot>
py::tuple ReduceSeededBot(const Bot& bot, const char* rebuild) {
  return py::make_tuple(Rebuild(rebuild),
                        py::make_tuple(bot.game().num_players, bot.game().options,
                                       py::int_(bot.seed()), py::int_(bot.stream())));
}

template <typename Bot>
Bot SeededBotFromData(py::handle game, py::handle seed, py::handle stream) {
  const Game& g = GameArg(game);
  RequireInts({{"seed", seed}, {"stream", stream}});
  Bot bot(g, Seed(seed));
  bot.SetStream(Uint64Arg(stream, "stream"));
  return bot;
}

py::tuple ReduceMcts(PyMcts& self) {
  ObjectLock lock(self.mutex);
  const MctsConfig& c = self.bot.config();
  py::dict budget(py::arg("iterations") = c.iterations > 0 ? py::object(py::int_(c.iterations))
                                                           : py::object(py::none()),
                  py::arg("max_time") = c.max_time > 0.0 ? py::object(py::float_(c.max_time))
                                                         : py::object(py::none()),
                  py::arg("uct_c") = c.uct_c,
                  py::arg("leaf") = c.leaf == Leaf::kPlayout ? "playout" : "evaluation",
                  py::arg("threads") = c.threads, py::arg("solver_nodes") = c.solver_nodes);
  return py::make_tuple(
      Rebuild("mcts_bot"),
      py::make_tuple(self.bot.game().num_players, self.bot.game().options,
                     py::int_(self.bot.seed()), budget, py::int_(self.bot.searches())));
}

std::unique_ptr<PyMcts> MctsFromData(py::handle game, py::handle seed, py::handle budget,
                                     py::handle searches) {
  const Game& g = GameArg(game);
  RequireInts({{"seed", seed}, {"searches", searches}});
  if (!PyDict_Check(budget.ptr())) {
    throw py::type_error("budget must be a dict, not " + TypeName(budget));
  }
  const py::dict b = py::reinterpret_borrow<py::dict>(budget);
  const char* const keys[] = {"iterations", "max_time", "uct_c", "leaf", "threads", "solver_nodes"};
  if (py::len(b) != std::size(keys)) {
    throw py::value_error(
        "budget must hold iterations, max_time, uct_c, leaf, threads, "
        "solver_nodes");
  }
  for (const char* key : keys) {
    if (!b.contains(key)) throw py::value_error(std::string("budget lacks ") + key);
  }
  const MctsConfig config = MctsConfigOf(b["iterations"], b["max_time"], b["uct_c"], b["leaf"],
                                         b["threads"], b["solver_nodes"]);
  auto bot = std::unique_ptr<PyMcts>(new PyMcts{MctsBot(g, Seed(seed), config), {}});
  bot->bot.SetSearches(Uint64Arg(searches, "searches"));
  return bot;
}

}  // namespace

void DefineSearch(py::module_& m) {
  namespace vk = vikinger;
  m.def("playouts", &vk::Playouts, py::arg("state"), py::arg("num_playouts"), py::arg("seed"),
        py::arg("threads") = 1,
        R"doc(Play num_playouts random playouts from state in C++ (GIL released).

Playout i starts from its own copy of state and uses stream seed + i with the uniform rule of
rollouts, so from the initial state it plays rollout game seed + i. Returns a dict of numpy arrays:
"scores", "gold" (num_playouts, n) int32, "returns" (num_playouts, n) float64, "length"
(num_playouts,) int32: the actions each playout applied (chance included).)doc");
  m.def("playouts_batch", &vk::PlayoutsBatch, py::arg("states"), py::arg("num_playouts"),
        py::arg("seed"), py::arg("threads") = 1,
        R"doc(playouts for each state of a list (one game): playout i of states[j] uses stream
seed + j * num_playouts + i. Arrays of shape (len(states), num_playouts, n) and, for "length",
(len(states), num_playouts).)doc");
  m.def("_playout_position", &vk::PlayoutPosition, py::arg("state"), py::arg("seed"),
        py::arg("fused") = true,
        R"doc(For tests: the position bytes (docs/state.md, no history) where playout seed from
state ends, with the hand-over to the fused playout (fused=True) or without it.)doc");
  m.def("evaluate", &vk::EvaluateState, py::arg("state"),
        R"doc(The heuristic value of state per player, in [0, 1] and summing to 1 (docs/search.md):
the returns once terminal, else a softmax of the Fame each player would have after the round's
pending scoring and the final scoring.)doc");
  m.def("solve_endgame", &vk::SolveEndgameState, py::arg("state"), py::arg("max_nodes"),
        py::arg("max_memory") = py::none(), py::arg("trips") = "counts",
        R"doc(The exact endgame under best play from a decision node of round 6 (docs/search.md):
{"action": the best action, "margins": each player's 64 * Fame + gold minus the best other
player's, "nodes": nodes searched}, or None when max_nodes did not suffice. The table holds at
most max_memory bytes (80 a position; default a quarter of the memory or of RLIMIT_AS): beyond
it, MemoryError. trips: how two players' last scoring is listed, "counts" (the best tiles for
each end of counts) or "tiles" (every placement: the same values in more nodes, the solver the
benchmark files were built with).)doc");

  m.def("solve_endgame_result", &vk::SolveEndgameResult, py::arg("state"), py::arg("max_nodes"),
        py::arg("max_memory") = py::none(), py::arg("trips") = "counts",
        R"doc(Who wins the endgame under best play, not by how much (two players; docs/search.md):
{"action": an action of the best result for the player to move, "results": the sign of each
player's margin (1 a win, 0 a shared win, -1 a loss), "nodes": nodes searched}, or None when
max_nodes did not suffice. Alpha-beta with the window (-1, 1): often far fewer nodes than
solve_endgame. max_memory and trips as solve_endgame's.)doc");

  py::class_<vk::PyEndgameSolver>(m, "EndgameSolver", R"doc(One solver table kept across solves of a
game's positions (docs/search.md "A table kept across solves"), as a chess engine keeps its
transposition table between moves.

EndgameSolver(game, max_memory=None, trips="counts"): solve(state, max_nodes) and
solve_result(state, max_nodes) are solve_endgame's and solve_endgame_result's, the same values,
from the entries earlier solves left (exact values, bounds, a scorer's listed trips): "nodes"
counts this call's, max_nodes bounds this call. The entries stay when a solve gives up, is
interrupted or reaches max_memory (each a finished result); clear() drops them; entries counts
them (80 bytes each against max_memory). Equal to vikinger_ref.EndgameSolver call for call.)doc")
      .def(py::init([](py::handle game, py::handle max_memory, py::handle trips) {
             const vk::Game& g = vk::GameArg(game);
             const int64_t memory = vk::MemoryArg(max_memory);
             const bool by_counts = vk::TripsArg(trips);
             return std::unique_ptr<vk::PyEndgameSolver>(
                 new vk::PyEndgameSolver{g, memory, vk::EndgameSolver(memory, by_counts), {}});
           }),
           py::arg("game"), py::arg("max_memory") = py::none(), py::arg("trips") = "counts")
      .def(
          "solve",
          [](vk::PyEndgameSolver& self, py::handle state, py::handle max_nodes) {
            return vk::SolveKept(self, state, max_nodes, false);
          },
          py::arg("state"), py::arg("max_nodes"),
          R"doc(solve_endgame(state, max_nodes) from the entries kept.)doc")
      .def(
          "solve_result",
          [](vk::PyEndgameSolver& self, py::handle state, py::handle max_nodes) {
            return vk::SolveKept(self, state, max_nodes, true);
          },
          py::arg("state"), py::arg("max_nodes"),
          R"doc(solve_endgame_result(state, max_nodes) from the entries kept.)doc")
      .def(
          "clear",
          [](vk::PyEndgameSolver& self) {
            vk::ObjectLock lock(self.mutex);
            self.solver.Clear();
          },
          R"doc(Drops every entry.)doc")
      .def_property_readonly(
          "entries",
          [](vk::PyEndgameSolver& self) {
            vk::ObjectLock lock(self.mutex);
            return self.solver.entries();
          },
          R"doc(The positions and list entries kept, each counted as 80 bytes of max_memory.)doc")
      // solver.py's NOT_COPIED: the table is a cache of this process's solves.
      .def("__reduce__", [](py::handle) -> py::object { throw py::type_error(vk::kNotCopied); })
      .def("__copy__", [](py::handle) -> py::object { throw py::type_error(vk::kNotCopied); })
      .def(
          "__deepcopy__",
          [](py::handle, py::handle) -> py::object { throw py::type_error(vk::kNotCopied); },
          py::arg("memo"));

  auto state_type = py::reinterpret_borrow<py::class_<State>>(m.attr("State"));
  state_type
      .def(
          "final_scoring_gains",
          [](const State& s) { return vk::GainList(s, &vk::FinalScoringGains); },
          R"doc([(fame, gold)] per player: what the final scoring (B8) would change if the game
ended now, on the boards as they stand; zeros once the game is over. The state is not changed.)doc")
      .def(
          "pending_scoring_gains",
          [](const State& s) { return vk::GainList(s, &vk::PendingScoringGains); },
          R"doc([(fame, gold)] per player: what the scoring that ends this round (B7.1 after rounds
1, 3, 5; B7.2 steps 2-6 after 2, 4, 6, without further trips) would pay the players it has not
scored yet; zeros once the game is over.)doc");

  py::class_<vk::RandomBot>(m, "RandomBot", R"doc(RandomBot(game, seed): a uniformly random legal
action, legal[floor(u * len(legal))] with u the next uniform of splitmix64(seed).)doc")
      .def(py::init([](py::handle game, py::handle seed) {
             const vk::Game& g = vk::GameArg(game);
             vk::RequireInts({{"seed", seed}});
             return vk::RandomBot(g, vk::Seed(seed));
           }),
           py::arg("game"), py::arg("seed"))
      .def(
          "step",
          [](vk::RandomBot& bot, py::handle state) {
            return bot.Step(vk::StateArg(state).position);
          },
          py::arg("state"), R"doc(The action to play at state (a decision node).)doc")
      .def(
          "policy",
          [](const vk::RandomBot& bot, py::handle state) {
            return vk::PolicyList(bot.Policy(vk::StateArg(state).position));
          },
          py::arg("state"), R"doc([(action, probability)] over the legal actions.)doc")
      .def("restart", &vk::RandomBot::Restart, R"doc(Back to the stream of the seed.)doc")
      .def("__reduce__",
           [](const vk::RandomBot& bot) { return vk::ReduceSeededBot(bot, "random_bot"); });
  m.def("_random_bot_from_data", &vk::SeededBotFromData<vk::RandomBot>, py::arg("game"),
        py::arg("seed"), py::arg("stream"),
        R"doc(Unpickle a RandomBot: its game, seed and the state of its stream, checked.)doc");

  py::class_<vk::GreedyBot>(m, "GreedyBot", R"doc(GreedyBot(game, seed): the legal action whose
successor has the highest evaluate() value for the mover; exact ties broken by
splitmix64(seed).)doc")
      .def(py::init([](py::handle game, py::handle seed) {
             const vk::Game& g = vk::GameArg(game);
             vk::RequireInts({{"seed", seed}});
             return vk::GreedyBot(g, vk::Seed(seed));
           }),
           py::arg("game"), py::arg("seed"))
      .def(
          "step",
          [](vk::GreedyBot& bot, py::handle state) {
            return bot.Step(vk::StateArg(state).position);
          },
          py::arg("state"), R"doc(The action to play at state (a decision node).)doc")
      .def(
          "policy",
          [](const vk::GreedyBot& bot, py::handle state) {
            return vk::PolicyList(bot.Policy(vk::StateArg(state).position));
          },
          py::arg("state"), R"doc([(action, share)]: the best actions share 1 equally.)doc")
      .def("restart", &vk::GreedyBot::Restart, R"doc(Back to the stream of the seed.)doc")
      .def("__reduce__",
           [](const vk::GreedyBot& bot) { return vk::ReduceSeededBot(bot, "greedy_bot"); });
  m.def("_greedy_bot_from_data", &vk::SeededBotFromData<vk::GreedyBot>, py::arg("game"),
        py::arg("seed"), py::arg("stream"),
        R"doc(Unpickle a GreedyBot: its game, seed and the state of its stream, checked.)doc");

  py::class_<vk::PyMcts>(m, "MCTSBot", R"doc(UCT search over decision nodes (docs/search.md).

MCTSBot(game, seed, *, iterations=None, max_time=None, uct_c=1.4, leaf="playout", threads=1,
solver_nodes=0): a budget of iterations and/or seconds per move; leaf "playout" (a random
playout) or "evaluation" (evaluate()); threads independent searches whose root visits are summed;
solver_nodes > 0 lets the endgame solver decide in round 6 when it finishes within that many
nodes. The same seed, iterations and threads give the same visits as vikinger_ref.MCTSBot.)doc")
      .def(py::init([](py::handle game, py::handle seed, py::handle iterations, py::handle max_time,
                       py::handle uct_c, py::handle leaf, py::handle threads,
                       py::handle solver_nodes) {
             const vk::Game& g = vk::GameArg(game);
             vk::RequireInts({{"seed", seed}});
             const vk::MctsConfig config =
                 vk::MctsConfigOf(iterations, max_time, uct_c, leaf, threads, solver_nodes);
             return std::unique_ptr<vk::PyMcts>(
                 new vk::PyMcts{vk::MctsBot(g, vk::Seed(seed), config), {}});
           }),
           py::arg("game"), py::arg("seed"), py::kw_only(), py::arg("iterations") = py::none(),
           py::arg("max_time") = py::none(), py::arg("uct_c") = 1.4, py::arg("leaf") = "playout",
           py::arg("threads") = 1, py::arg("solver_nodes") = 0)
      .def(
          "step",
          [](vk::PyMcts& self, py::handle state) {
            return vk::MctsBot::BestAction(vk::RunSearch(self, state, "step"));
          },
          py::arg("state"),
          R"doc(Search (GIL released), then the most visited action (the lowest id on a tie).)doc")
      .def(
          "policy",
          [](vk::PyMcts& self, py::handle state) {
            return vk::VisitShares(vk::RunSearch(self, state, "policy"));
          },
          py::arg("state"), R"doc(Search, then [(action, visit share)] over the legal actions.)doc")
      .def(
          "search",
          [](vk::PyMcts& self, py::handle state) {
            const vk::SearchResult r = vk::RunSearch(self, state, "search");
            return py::dict(py::arg("actions") = r.actions, py::arg("visits") = r.visits,
                            py::arg("iterations") = r.iterations, py::arg("solved") = r.solved);
          },
          py::arg("state"),
          R"doc(Search, then {"actions", "visits" (root visits, merged over threads), "iterations",
"solved"}.)doc")
      .def(
          "restart",
          [](vk::PyMcts& self) {
            vk::ObjectLock lock(self.mutex);
            self.bot.Restart();
          },
          R"doc(Back to the first search's streams.)doc")
      .def("__reduce__", &vk::ReduceMcts);
  m.def("_mcts_bot_from_data", &vk::MctsFromData, py::arg("game"), py::arg("seed"),
        py::arg("budget"), py::arg("searches"),
        R"doc(Unpickle an MCTSBot: game, seed, budget (the constructor's keywords) and the
searches done since construction or restart, checked as the constructor does.)doc");
}

}  // namespace vikinger

// rollouts, _rollout_position, _bit_select, _trip_table_mismatches and VectorGame of the Python
// module (docs/api.md "Rollouts", "VectorGame"): the batched entry points, which release the GIL
// while C++ plays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "api/game.h"
#include "api/vector_game.h"
#include "bindings/helpers.h"
#include "formats/serialization.h"
#include "play/rollout.h"
#include "rules/actions.h"
#include "rules/trips.h"

namespace vikinger {
namespace {

// The position bytes (docs/state.md, without the history) at the end of rollout game `seed`.
py::bytes RolloutPosition(const Game& game, py::handle seed, py::handle policy,
                          py::handle bit_select) {
  RequireInts({{"seed", seed}});
  const Policy how = PolicyArg(policy);
  const BitSelect select = BitSelectArg(bit_select);
  Position final_position;
  PlayRandomGame(game.num_players, game.options, Seed(seed), how, &final_position, select);
  uint8_t bytes[kMaxPositionBytes];
  const int size = PositionBytes(final_position, bytes);
  return py::bytes(reinterpret_cast<const char*>(bytes), size);
}

py::dict Rollouts(const Game& game, py::handle num_games, py::handle seed, py::handle threads,
                  py::handle policy) {
  RequireInts({{"num_games", num_games}, {"seed", seed}, {"threads", threads}});
  const int64_t count = CountArg(num_games, "num_games");
  // More threads than games (or than 256: ThreadsArg) only add start-up cost.
  const int thread_count =
      static_cast<int>(std::min<int64_t>(ThreadsArg(threads), std::max<int64_t>(count, 1)));
  const Policy how = PolicyArg(policy);
  const uint64_t first_seed = Seed(seed);  // docs/api.md: (seed + i) mod 2**64
  const int64_t n = game.num_players;
  py::array_t<int32_t> scores({count, n});
  py::array_t<int32_t> gold({count, n});
  py::array_t<double> returns({count, n});
  py::array_t<int32_t> length(count);
  const RolloutArrays out{scores.mutable_data(), gold.mutable_data(), returns.mutable_data(),
                          length.mutable_data()};
  Interrupt interrupt(PythonSignalPoll());
  {
    py::gil_scoped_release release;
    PlayRandomGames(game.num_players, game.options, first_seed, how, count, thread_count, out,
                    &interrupt);
  }
  ThrowIfInterrupted(interrupt);
  return py::dict(py::arg("scores") = scores, py::arg("gold") = gold, py::arg("returns") = returns,
                  py::arg("length") = length);
}

// --- VectorGame -----------------------------------------------------------------------------

std::unique_ptr<VectorGame> MakeVectorGame(py::handle game, py::handle batch_size,
                                           py::handle seed) {
  const Game g = GameArg(game);
  RequireInts({{"batch_size", batch_size}, {"seed", seed}});
  bool huge;
  const int64_t batch = IndexValue(batch_size, "batch_size", &huge);
  // Beyond int64 either way: named by the number given, as the reference names it (the core's
  // own message would show the saturated -1).
  if (huge && batch > 0) throw py::value_error("batch_size " + Text(batch_size) + " is too large");
  if (huge) throw py::value_error("batch_size must be >= 1, not " + Text(batch_size));
  const uint64_t first_seed = Seed(seed);
  Interrupt interrupt(PythonSignalPoll());
  std::unique_ptr<VectorGame> env;
  {
    py::gil_scoped_release release;  // a large batch takes a while to start
    env = std::make_unique<VectorGame>(g, batch, first_seed, &interrupt);
  }
  ThrowIfInterrupted(interrupt);  // the half-started object is dropped
  return env;
}

// The second dimension of a VectorGame array: none, players, observation size or actions.
enum class Columns { kNone, kPlayers, kObservation, kActions };

// A numpy view of an array owned by the VectorGame `self`, which the view keeps alive.
template <typename T>
py::array_t<T> View(py::handle self, T* (VectorGame::*data)(), Columns columns) {
  VectorGame& env = self.cast<VectorGame&>();
  std::vector<py::ssize_t> shape = {env.batch_size()};
  if (columns == Columns::kPlayers) shape.push_back(env.game().num_players);
  if (columns == Columns::kObservation) shape.push_back(env.observation_size());
  if (columns == Columns::kActions) shape.push_back(kNumDistinctActions);
  return py::array_t<T>(std::move(shape), (env.*data)(), self);
}

// docs/api.md: integer dtypes only (bool refused), shape (batch,), every action legal where
// `where` (None, or a bool array of shape (batch,)) selects the environment.
void StepVectorGame(VectorGame& env, py::handle actions, py::handle where) {
  py::module_ np = py::module_::import("numpy");
  std::vector<uint8_t> selected;
  if (!where.is_none()) {
    py::array rows = np.attr("asarray")(where);
    if (rows.dtype().kind() != 'b') {
      throw py::type_error("where must be a bool array, not " + Text(rows.dtype()));
    }
    if (rows.ndim() != 1 || rows.shape(0) != env.batch_size()) {
      throw py::value_error("where must have shape (" + std::to_string(env.batch_size()) +
                            ",), not " + Text(rows.attr("shape")));
    }
    py::array_t<uint8_t> bytes = rows.attr("astype")(np.attr("uint8"));
    selected.assign(bytes.data(), bytes.data() + env.batch_size());
  }
  py::array array = np.attr("asarray")(actions);
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    throw py::type_error("actions must be integers, not " + Text(array.dtype()));
  }
  if (array.ndim() != 1 || array.shape(0) != env.batch_size()) {
    throw py::value_error("actions must have shape (" + std::to_string(env.batch_size()) +
                          ",), not " + Text(array.attr("shape")));
  }
  std::vector<int64_t> ids(static_cast<size_t>(env.batch_size()));
  py::array_t<uint64_t> as_unsigned = array.attr("astype")(np.attr("uint64"));
  py::array_t<int64_t> as_signed = array.attr("astype")(np.attr("int64"));
  for (int i = 0; i < env.batch_size(); ++i) {
    // An unsigned id beyond int64 is no legal id: keep it out of range.
    ids[i] = kind == 'u' && as_unsigned.at(i) > uint64_t{INT64_MAX} ? -1 : as_signed.at(i);
  }
  Interrupt interrupt(PythonSignalPoll());
  {
    py::gil_scoped_release release;
    env.Step(ids.data(), &interrupt,
             selected.empty() ? nullptr : reinterpret_cast<const bool*>(selected.data()));
  }
  ThrowIfInterrupted(interrupt);  // Step put every environment back
}

// VectorGame.play_random: `where` bool (batch,), `streams` a writable C-contiguous uint64 array
// (batch,), `observer` None or integers (batch,) in 0..num_players-1.
void PlayRandomVectorGame(VectorGame& env, py::handle where, py::handle streams,
                          py::handle observer) {
  py::module_ np = py::module_::import("numpy");
  const std::string batch = "(" + std::to_string(env.batch_size()) + ",)";
  py::array rows = np.attr("asarray")(where);
  if (rows.dtype().kind() != 'b') {
    throw py::type_error("where must be a bool array, not " + Text(rows.dtype()));
  }
  if (rows.ndim() != 1 || rows.shape(0) != env.batch_size()) {
    throw py::value_error("where must have shape " + batch + ", not " + Text(rows.attr("shape")));
  }
  const py::array_t<uint8_t> selected = rows.attr("astype")(np.attr("uint8"));
  if (!py::isinstance<py::array>(streams) ||
      !py::array(streams, true).dtype().equal(py::dtype::of<uint64_t>())) {
    throw py::type_error("streams must be a numpy array of uint64, not " + TypeName(streams));
  }
  py::array_t<uint64_t> states(streams, true);
  if (states.ndim() != 1 || states.shape(0) != env.batch_size()) {
    throw py::value_error("streams must have shape " + batch + ", not " +
                          Text(states.attr("shape")));
  }
  if (!states.writeable() || !(states.flags() & py::array::c_style)) {
    throw py::value_error("streams must be writable and contiguous (they are advanced in place)");
  }
  std::vector<int32_t> observers;
  if (!observer.is_none()) {
    py::array seats = np.attr("asarray")(observer);
    if (seats.dtype().kind() != 'i' && seats.dtype().kind() != 'u') {
      throw py::type_error("observer must be integers, not " + Text(seats.dtype()));
    }
    if (seats.ndim() != 1 || seats.shape(0) != env.batch_size()) {
      throw py::value_error("observer must have shape " + batch + ", not " +
                            Text(seats.attr("shape")));
    }
    const py::array_t<int64_t> values = seats.attr("astype")(np.attr("int64"));
    const py::array_t<uint64_t> unsigned_values = seats.attr("astype")(np.attr("uint64"));
    for (int i = 0; i < env.batch_size(); ++i) {
      const bool negative = seats.dtype().kind() == 'i' && values.at(i) < 0;
      if (negative || unsigned_values.at(i) >= static_cast<uint64_t>(env.game().num_players)) {
        throw py::value_error("observer must be players 0.." +
                              std::to_string(env.game().num_players - 1) + ", not " +
                              Text(seats.attr("__getitem__")(i)));
      }
      observers.push_back(static_cast<int32_t>(values.at(i)));
    }
  }
  Interrupt interrupt(PythonSignalPoll());
  {
    py::gil_scoped_release release;
    env.PlayRandom(reinterpret_cast<const bool*>(selected.data()), states.mutable_data(),
                   observers.empty() ? nullptr : observers.data(), &interrupt);
  }
  ThrowIfInterrupted(interrupt);  // nothing changed, the streams neither
}

// A method of VectorGame run under the object's lock (ObjectLock), returning the view `data`.
template <typename T>
py::array_t<T> Locked(py::object self, void (*work)(VectorGame&), T* (VectorGame::*data)(),
                      Columns columns) {
  VectorGame& env = self.cast<VectorGame&>();
  ObjectLock lock(env.mutex());
  work(env);
  return View(self, data, columns);
}

// --- pickling a VectorGame (docs/api.md "VectorGame") --------------------------------------
// The data: the game; per environment its position bytes (docs/state.md, no history), the
// state of its chance stream and the actions of its current game; the done and final_* arrays.
// The rebuild checks all of it as state_from_dict and the constructor would.

const char* const kArrayNames[] = {"done",          "final_scores", "final_gold",
                                   "final_returns", "final_length", "final_observation"};

py::tuple ReduceVectorGame(py::object self) {
  VectorGame& env = self.cast<VectorGame&>();
  ObjectLock lock(env.mutex());
  const int b = env.batch_size();
  py::tuple positions(b), streams(b), lengths(b);
  State state(env.game().num_players, env.game().options);
  for (int i = 0; i < b; ++i) {
    state.position = env.position(i);
    positions[i] = py::bytes(Serialize(state));
    streams[i] = py::int_(env.stream_state(i));
    lengths[i] = py::int_(env.length(i));
  }
  auto copy = [](py::array array) { return array.attr("copy")(); };
  py::tuple data =
      py::make_tuple(py::cast(env.game()), positions, streams, lengths,
                     copy(View(self, &VectorGame::done, Columns::kNone)),
                     copy(View(self, &VectorGame::final_scores, Columns::kPlayers)),
                     copy(View(self, &VectorGame::final_gold, Columns::kPlayers)),
                     copy(View(self, &VectorGame::final_returns, Columns::kPlayers)),
                     copy(View(self, &VectorGame::final_length, Columns::kNone)),
                     copy(View(self, &VectorGame::final_observation, Columns::kObservation)));
  return py::make_tuple(
      py::module_::import("vikinger_fast.safety.rebuild").attr("vector_game_from_data"), data);
}

// Copies a pickled array into the array `data` of `env`: same dtype and shape required.
template <typename T>
void CopyArray(py::handle value, const char* name, VectorGame& env, T* (VectorGame::*data)(),
               Columns columns) {
  std::vector<py::ssize_t> shape = {env.batch_size()};
  if (columns == Columns::kPlayers) shape.push_back(env.game().num_players);
  if (columns == Columns::kObservation) shape.push_back(env.observation_size());
  const py::dtype dtype = py::dtype::of<T>();
  if (!py::isinstance<py::array>(value) || !py::array(value, true).dtype().equal(dtype)) {
    throw py::type_error(std::string(name) + " must be a numpy array of " + Text(dtype) + ", not " +
                         TypeName(value));
  }
  const py::array_t<T, py::array::c_style | py::array::forcecast> array(value, true);
  if (array.ndim() != static_cast<py::ssize_t>(shape.size()) ||
      !std::equal(shape.begin(), shape.end(), array.shape())) {
    py::tuple expected(shape.size());
    for (size_t k = 0; k < shape.size(); ++k) expected[k] = py::int_(shape[k]);
    throw py::value_error(std::string(name) + " must have shape " + Text(expected) + ", not " +
                          Text(array.attr("shape")));
  }
  std::copy_n(array.data(), array.size(), (env.*data)());
}

std::unique_ptr<VectorGame> VectorGameFromData(py::handle game, py::handle positions_arg,
                                               py::handle streams_arg, py::handle lengths_arg,
                                               py::args arrays) {
  const Game g = GameArg(game);
  const py::tuple positions = TupleArg(positions_arg, "positions");
  const py::tuple streams = TupleArg(streams_arg, "streams");
  const py::tuple lengths = TupleArg(lengths_arg, "lengths");
  const py::ssize_t b = py::len(positions);
  if (b < 1 || py::len(streams) != b || py::len(lengths) != b) {
    throw py::value_error("positions, streams and lengths must be of one length >= 1");
  }
  if (arrays.size() != std::size(kArrayNames)) {
    throw py::type_error("a VectorGame is rebuilt from " + std::to_string(std::size(kArrayNames)) +
                         " arrays, not " + std::to_string(arrays.size()));
  }
  auto env = std::make_unique<VectorGame>(g, b, 0);
  for (py::ssize_t i = 0; i < b; ++i) {
    py::handle bytes = positions[i];
    if (!PyBytes_Check(bytes.ptr())) {
      throw py::type_error("positions must hold bytes, not " + TypeName(bytes));
    }
    RequireInts({{"a stream state", streams[i]}, {"a length", lengths[i]}});
    const uint64_t stream = Uint64Arg(streams[i], "a stream state");  // never taken mod 2**64
    const State state = StateFromBytes(&g, bytes.cast<std::string>());
    bool huge;
    const int64_t length = IndexValue(lengths[i], "a length", &huge);
    if (huge) {
      throw py::value_error("the length of environment " + std::to_string(i) + " is " +
                            Text(lengths[i]) + ", outside 0..2**31-1");
    }
    env->Restore(static_cast<int>(i), state.position, stream, length);
  }
  CopyArray(arrays[0], kArrayNames[0], *env, &VectorGame::done, Columns::kNone);
  CopyArray(arrays[1], kArrayNames[1], *env, &VectorGame::final_scores, Columns::kPlayers);
  CopyArray(arrays[2], kArrayNames[2], *env, &VectorGame::final_gold, Columns::kPlayers);
  CopyArray(arrays[3], kArrayNames[3], *env, &VectorGame::final_returns, Columns::kPlayers);
  CopyArray(arrays[4], kArrayNames[4], *env, &VectorGame::final_length, Columns::kNone);
  CopyArray(arrays[5], kArrayNames[5], *env, &VectorGame::final_observation, Columns::kObservation);
  return env;
}

}  // namespace

void DefineBatch(py::module_& m) {
  namespace vk = vikinger;
  using vk::Columns;
  py::class_<VectorGame>(m, "VectorGame", R"doc(A batch of games stepped together, for RL loops.

VectorGame(game, batch_size, seed): environment i samples chance from the splitmix64 stream of
seed + i and always waits at a decision node; finished games are recorded in the final_* arrays
and restarted at once. The arrays are allocated once and returned as views: copy what you keep.)doc")
      .def(py::init(&vk::MakeVectorGame), py::arg("game"), py::arg("batch_size"), py::arg("seed"))
      .def_property_readonly("batch_size", &VectorGame::batch_size)
      .def("get_game", [](const VectorGame& env) { return env.game(); })
      .def(
          "legal_actions_mask",
          [](py::object self) {
            return vk::Locked(
                self, [](VectorGame& env) { env.WriteLegalMask(); }, &VectorGame::legal_mask,
                Columns::kActions);
          },
          R"doc((batch, num_distinct_actions) bool: the legal decisions, rewritten in place.)doc")
      .def(
          "observation_tensor",
          [](py::object self) {
            return vk::Locked(
                self, [](VectorGame& env) { env.WriteObservations(); }, &VectorGame::observations,
                Columns::kObservation);
          },
          R"doc((batch, observation size) float32: row i seen by env i's player to move.)doc")
      .def(
          "current_player",
          [](py::object self) {
            return vk::Locked(
                self, [](VectorGame& env) { env.WriteCurrentPlayers(); }, &VectorGame::players,
                Columns::kNone);
          },
          R"doc((batch,) int32: the player to move in each environment.)doc")
      .def(
          "step",
          [](py::object self, py::handle actions, py::handle where) {
            VectorGame& env = self.cast<VectorGame&>();
            ObjectLock lock(env.mutex());
            vk::StepVectorGame(env, actions, where);
            return vk::View(self, &VectorGame::done, Columns::kNone);
          },
          py::arg("actions"), py::arg("where") = py::none(),
          R"doc(Apply actions[i] in environment i (GIL released); returns done.

where: None (every environment) or a bool array of shape (batch,): only the environments where it
is True move, the others stay as they are (their actions unchecked, done False).
TypeError unless actions are integers (bool refused) and where is bool; ValueError for a wrong
shape or an action not legal in its environment, and then nothing has changed.
KeyboardInterrupt (Ctrl-C) puts every environment back as it was.)doc")
      .def(
          "play_random",
          [](py::object self, py::handle where, py::handle streams, py::handle observer) {
            VectorGame& env = self.cast<VectorGame&>();
            ObjectLock lock(env.mutex());
            vk::PlayRandomVectorGame(env, where, streams, observer);
            return vk::View(self, &VectorGame::done, Columns::kNone);
          },
          py::arg("where"), py::arg("streams"), py::arg("observer") = py::none(),
          R"doc(RandomBot's move in the environments where `where` is True (GIL released); returns done.

Environment i plays legal[floor(u * len(legal))], u the next uniform of the splitmix64 stream
whose state is streams[i] (a uint64 array, advanced in place), as RandomBot(game, seed) with
streams[i] = seed does; then chance as in step. observer (None: the mover) names per environment
the player whose view of a finished game goes to final_observation. KeyboardInterrupt changes
nothing, the streams neither.)doc")
      .def(
          "state",
          [](VectorGame& env, py::handle index) {
            ObjectLock lock(env.mutex());
            vk::RequireInts({{"env", index}});
            bool huge;
            const int64_t i = vk::IndexValue(index, "env", &huge);
            if (huge || i < 0 || i >= env.batch_size()) {
              throw py::value_error("env must be in 0.." + std::to_string(env.batch_size() - 1) +
                                    ", not " + vk::Text(index));
            }
            State state(env.game().num_players, env.game().options);
            state.position = env.position(static_cast<int>(i));
            return state;
          },
          py::arg("env"),
          R"doc(A copy of environment env's state (a decision node; no history): for bots that
play some seats of the batch.)doc")
      .def_property_readonly(
          "done", [](py::object s) { return vk::View(s, &VectorGame::done, Columns::kNone); })
      .def_property_readonly(
          "final_scores",
          [](py::object s) { return vk::View(s, &VectorGame::final_scores, Columns::kPlayers); })
      .def_property_readonly(
          "final_gold",
          [](py::object s) { return vk::View(s, &VectorGame::final_gold, Columns::kPlayers); })
      .def_property_readonly(
          "final_returns",
          [](py::object s) { return vk::View(s, &VectorGame::final_returns, Columns::kPlayers); })
      .def_property_readonly(
          "final_length",
          [](py::object s) { return vk::View(s, &VectorGame::final_length, Columns::kNone); })
      .def_property_readonly("final_observation",
                             [](py::object s) {
                               return vk::View(s, &VectorGame::final_observation,
                                               Columns::kObservation);
                             })
      .def("__reduce__", &vk::ReduceVectorGame);
  m.def("_vector_game_from_data", &vk::VectorGameFromData, py::arg("game"), py::arg("positions"),
        py::arg("streams"), py::arg("lengths"),
        R"doc(The VectorGame a pickle holds (its __reduce__ data), checked completely.)doc");

  m.def("_rollout_position", &vk::RolloutPosition, py::arg("game"), py::arg("seed"),
        py::arg("policy") = "random", py::arg("bit_select") = "auto",
        R"doc(The position bytes (docs/state.md, no history) at the end of rollout game seed.

For tests: the fused playout of policy "random" must end every game exactly where the state
machine of "random_generic" does, with either way of finding the k-th legal action
(bit_select "table", or "pdep" on a CPU with BMI2; "auto" is what rollouts use).)doc");

  m.def(
      "_bit_select",
      []() {
        py::list available;
        available.append("table");
        if (vk::PdepIsAvailable()) available.append("pdep");
        py::dict info;
        info["auto"] = vk::AutoBitSelect() == vk::BitSelect::kPdep ? "pdep" : "table";
        info["available"] = available;
        return info;
      },
      R"doc(How the fused playout finds the k-th legal action on this CPU: {"auto": the way rollouts
use, "available": the ways _rollout_position can be asked for}.)doc");

  m.def(
      "_trip_table_mismatches",
      []() {
        py::gil_scoped_release release;
        return vk::FullTripsTableMismatches();
      },
      R"doc(For tests: the inputs (counts up to 9, boatsmen up to 13) where the table that answers
B7.2.1a without A4 differs from the loop it is made from; 0 when they agree everywhere.)doc");

  m.def("rollouts", &vk::Rollouts, py::arg("game"), py::arg("num_games"), py::arg("seed"),
        py::arg("threads") = 1, py::arg("policy") = "random",
        R"doc(Play num_games random games in C++ (GIL released); game i uses seed seed + i.

policy "random" plays every game, with or without the advanced modules, by a fused playout;
"random_generic" goes through the state machine and builds the legal list at every decision. Both play the same games, whatever the number of threads.

Returns a dict of numpy arrays: "scores" (num_games, n) int32 final Fame, "gold" (num_games, n)
int32, "returns" (num_games, n) float64 win shares, "length" (num_games,) int32 actions applied
(chance included). The same games as vikinger_ref.rollouts.)doc");
}

}  // namespace vikinger

// The Python module vikinger_fast._core: the OpenSpiel-style API of docs/api.md over the C++
// engine. The only file that includes pybind11, and thin: it checks Python argument types,
// converts between Python objects and C++ values (value.h trees for dicts, numpy arrays written
// in place) and holds the docstrings, mirrored in src/vikinger_fast/_core.pyi. The rules and
// formats live in the other csrc/ files; game.h holds the API semantics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "actions.h"
#include "game.h"
#include "observation.h"
#include "rng.h"
#include "rollout.h"
#include "serialization.h"
#include "state.h"
#include "state_dict.h"
#include "text.h"
#include "value.h"
#include "vector_game.h"

namespace py = pybind11;

namespace vikinger {
namespace {

// Nesting deeper than any state dict: converted no further (refused by the format checks).
constexpr int kMaxDictDepth = 8;

// numpy types, looked up once (numpy is a dependency of the package).
struct NumpyTypes {
  py::handle bool_type;
  py::handle integer_type;
  py::handle generator_type;
};

const NumpyTypes& Numpy() {
  static const NumpyTypes types = [] {
    py::module_ np = py::module_::import("numpy");
    return NumpyTypes{py::object(np.attr("bool_")).release(),
                      py::object(np.attr("integer")).release(),
                      py::object(np.attr("random").attr("Generator")).release()};
  }();
  return types;
}

std::string TypeName(py::handle value) { return Py_TYPE(value.ptr())->tp_name; }

bool IsBool(py::handle value) {
  return PyBool_Check(value.ptr()) || py::isinstance(value, Numpy().bool_type);
}

// isinstance(value, (int, np.integer)) and not a bool.
bool IsInteger(py::handle value) {
  return !IsBool(value) &&
         (PyLong_Check(value.ptr()) || py::isinstance(value, Numpy().integer_type));
}

// An int from anything with __index__ except bool (docs/api.md: Python and numpy integers).
// `*huge` is set for ints beyond int64 (the result is then their sign), which callers refuse
// naming the original number.
int64_t IndexValue(py::handle value, const char* what, bool* huge) {
  if (IsBool(value)) throw py::type_error(std::string(what) + " must be an int, not bool");
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + " must be an int, not " + TypeName(value));
  }
  int overflow = 0;
  const long long result = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  *huge = overflow != 0;
  return overflow ? overflow : result;
}

std::string Text(py::handle value) { return py::str(value).cast<std::string>(); }

// The UTF-8 bytes of a str; false for a str that has none (lone surrogates).
bool Utf8(py::handle text, std::string* out) {
  Py_ssize_t length = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(text.ptr(), &length);
  if (utf8 == nullptr) {
    PyErr_Clear();
    return false;
  }
  out->assign(utf8, static_cast<size_t>(length));
  return true;
}

void ApplyAction(State& state, py::handle action) {
  bool huge;
  const int64_t id = IndexValue(action, "an action", &huge);
  if (!huge) return state.ApplyAction(id);
  const Position& p = state.position;
  if (IsTerminal(p)) {
    throw py::value_error("the game is over; action " + Text(action) + " cannot be applied");
  }
  throw py::value_error(std::string(IsChanceNode(p) ? "chance outcome " : "action ") +
                        Text(action) + " is not legal in phase " +
                        kPhaseNames[static_cast<int>(p.phase)]);
}

std::string ActionString(const State& state, py::handle action) {
  bool huge;
  const int64_t id = IndexValue(action, "an action", &huge);
  if (!huge) return ActionToString(state, id);
  throw py::value_error(std::string(IsChanceNode(state.position) ? "chance" : "decision") + " id " +
                        Text(action) + " is outside the id space of the node");
}

// An int or numpy integer taken modulo 2**64 (seeds).
uint64_t Seed(py::handle value) {
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) throw py::error_already_set();
  const uint64_t seed = PyLong_AsUnsignedLongLongMask(index);
  Py_DECREF(index);
  return seed;
}

py::list IntList(const int* values, int n) {
  PyObject* list = PyList_New(n);
  if (list == nullptr) throw py::error_already_set();
  for (int i = 0; i < n; ++i) PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
  return py::reinterpret_steal<py::list>(list);
}

// --- dicts <-> value trees -----------------------------------------------------------------

Value ToValue(py::handle object, int depth) {
  PyObject* o = object.ptr();
  if (o == Py_None) return Value();
  if (PyBool_Check(o)) return Value::Bool(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    return Value::Int(overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : v);
  }
  if (PyUnicode_Check(o)) {
    Py_ssize_t length = 0;
    const char* text = PyUnicode_AsUTF8AndSize(o, &length);
    if (text == nullptr) {  // e.g. lone surrogates: no such name exists
      PyErr_Clear();
      return Value::Other("str");
    }
    return Value::Str(std::string(text, static_cast<size_t>(length)));
  }
  if (depth >= kMaxDictDepth) return Value::Other(TypeName(object));
  if (PyList_Check(o)) {
    Value list = Value::List();
    for (py::handle item : py::reinterpret_borrow<py::list>(object)) {
      list.Append(ToValue(item, depth + 1));
    }
    return list;
  }
  if (PyDict_Check(o)) {
    Value dict = Value::Dict();
    for (auto item : py::reinterpret_borrow<py::dict>(object)) {
      // A key that is not a str matches no key of the format: "\x01" marks it unknown.
      const std::string key =
          PyUnicode_Check(item.first.ptr()) ? ToValue(item.first, depth).AsStr() : "\x01";
      dict.Set(key, ToValue(item.second, depth + 1));
    }
    return dict;
  }
  return Value::Other(TypeName(object));
}

py::object ToPython(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kBool:
      return py::bool_(value.AsBool());
    case Value::Kind::kInt:
      return py::int_(value.AsInt());
    case Value::Kind::kStr:
      return py::str(value.AsStr());
    case Value::Kind::kList: {
      py::list list(value.Items().size());
      for (size_t i = 0; i < value.Items().size(); ++i) list[i] = ToPython(value.Items()[i]);
      return std::move(list);
    }
    case Value::Kind::kDict: {
      py::dict dict;
      for (const auto& entry : value.Entries()) dict[py::str(entry.first)] = ToPython(entry.second);
      return std::move(dict);
    }
    default:
      return py::none();
  }
}

// --- State methods with Python arguments ----------------------------------------------------

int ApplyRandomChance(State& state, py::handle rng) {
  if (!IsChanceNode(state.position)) {
    throw py::value_error("apply_random_chance needs a chance node");
  }
  double u;
  if (py::isinstance(rng, Numpy().generator_type)) {
    u = rng.attr("random")().cast<double>();
  } else if (IsInteger(rng)) {
    u = UniformFromSeed(Seed(rng));  // docs/api.md: the seed mod 2**64, mixed
  } else {
    throw py::type_error("rng must be a numpy.random.Generator or an int seed, not " +
                         TypeName(rng));
  }
  return state.ApplyRandomChance(u);
}

int PlayerArgument(const State& state, py::handle player) {
  if (!IsInteger(player)) throw py::type_error("player must be an int, not " + TypeName(player));
  bool huge;
  const int64_t p = IndexValue(player, "player", &huge);
  if (huge) throw py::value_error("player " + Text(player) + " is outside 0..n-1");
  return CheckPlayer(state, p);
}

py::array_t<float> Observation(const State& state, py::handle player) {
  const int p = PlayerArgument(state, player);
  py::array_t<float> out(ObservationSize(state.position.num_players));
  ObservationTensor(state.position, p, out.mutable_data());
  return out;
}

py::array_t<bool> ThreatenedMask(const State& state, py::handle player) {
  const int p = PlayerArgument(state, player);
  py::array_t<bool> mask({kNumRows, kNumColumns});
  ThreatenedCells(state, p, mask.mutable_data());
  return mask;
}

py::array_t<bool> LegalMask(const State& state) {
  py::array_t<bool> mask(kNumDistinctActions);
  bool* data = mask.mutable_data();
  std::fill(data, data + kNumDistinctActions, false);
  int legal[kMaxLegalActions];
  const int n = LegalActions(state.position, legal);
  for (int i = 0; i < n; ++i) data[legal[i]] = true;
  return mask;
}

py::bytes Bytes(py::handle data) {
  if (!PyBytes_Check(data.ptr()) && !PyByteArray_Check(data.ptr()) &&
      !PyMemoryView_Check(data.ptr())) {
    throw py::type_error("deserialize_state needs bytes, not " + TypeName(data));
  }
  PyObject* copy = PyBytes_FromObject(data.ptr());
  if (copy == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(copy);
}

bool StatesEqual(const State& a, py::handle other) {
  return py::isinstance<State>(other) && Serialize(a) == Serialize(other.cast<const State&>());
}

// TypeError unless every argument is an int or numpy integer (bool refused).
void RequireInts(std::initializer_list<std::pair<const char*, py::handle>> args) {
  for (const auto& arg : args) {
    if (!IsInteger(arg.second)) {
      throw py::type_error(std::string(arg.first) + " must be an int, not " + TypeName(arg.second));
    }
  }
}

py::dict Rollouts(const Game& game, py::handle num_games, py::handle seed, py::handle threads,
                  py::handle policy) {
  RequireInts({{"num_games", num_games}, {"seed", seed}, {"threads", threads}});
  bool huge_count;
  bool huge_threads;
  const int64_t count = IndexValue(num_games, "num_games", &huge_count);
  const int64_t workers = IndexValue(threads, "threads", &huge_threads);
  if (count < 0) throw py::value_error("num_games must be >= 0, not " + Text(num_games));
  if (huge_count) throw py::value_error("num_games " + Text(num_games) + " is too large");
  if (workers < 1) throw py::value_error("threads must be >= 1, not " + Text(threads));
  // More threads than games or than 256 only add start-up cost.
  const int thread_count = static_cast<int>(
      std::min<int64_t>({huge_threads ? 256 : workers, int64_t{256}, std::max<int64_t>(count, 1)}));
  if (!PyUnicode_Check(policy.ptr())) {
    throw py::type_error("policy must be a str, not " + TypeName(policy));
  }
  std::string policy_name;
  Utf8(policy, &policy_name);
  if (policy_name != "random" && policy_name != "random_generic") {
    throw py::value_error("policy must be one of random, random_generic, not " +
                          py::repr(policy).cast<std::string>());
  }
  const Policy how = policy_name == "random" ? Policy::kRandom : Policy::kRandomGeneric;
  const uint64_t first_seed = Seed(seed);  // docs/api.md: (seed + i) mod 2**64
  const int64_t n = game.num_players;
  py::array_t<int32_t> scores({count, n});
  py::array_t<int32_t> gold({count, n});
  py::array_t<double> returns({count, n});
  py::array_t<int32_t> length(count);
  const RolloutArrays out{scores.mutable_data(), gold.mutable_data(), returns.mutable_data(),
                          length.mutable_data()};
  {
    py::gil_scoped_release release;
    PlayRandomGames(game.num_players, game.options, first_seed, how, count, thread_count, out);
  }
  return py::dict(py::arg("scores") = scores, py::arg("gold") = gold, py::arg("returns") = returns,
                  py::arg("length") = length);
}

// --- VectorGame -----------------------------------------------------------------------------

VectorGame MakeVectorGame(py::handle game, py::handle batch_size, py::handle seed) {
  if (!py::isinstance<Game>(game))
    throw py::type_error("game must be a Game, not " + TypeName(game));
  RequireInts({{"batch_size", batch_size}, {"seed", seed}});
  bool huge;
  const int64_t batch = IndexValue(batch_size, "batch_size", &huge);
  if (huge && batch > 0) throw py::value_error("batch_size " + Text(batch_size) + " is too large");
  return VectorGame(game.cast<const Game&>(), batch, Seed(seed));
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

// docs/api.md: integer dtypes only (bool refused), shape (batch,), every action legal.
void StepVectorGame(VectorGame& env, py::handle actions) {
  py::module_ np = py::module_::import("numpy");
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
  py::gil_scoped_release release;
  env.Step(ids.data());
}

}  // namespace
}  // namespace vikinger

PYBIND11_MODULE(_core, m) {
  using vikinger::Game;
  using vikinger::State;
  using vikinger::VectorGame;
  namespace vk = vikinger;

  m.doc() = R"doc(The C++ core of vikinger_fast: Wikinger (Vikings) for game-AI research.

Same API as the pure-Python reference vikinger_ref (docs/api.md).)doc";

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const vk::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });

  m.attr("CHANCE") = vk::kChance;
  m.attr("TERMINAL") = vk::kTerminal;
  m.attr("NUM_DISTINCT_ACTIONS") = vk::kNumDistinctActions;
  m.attr("MAX_CHANCE_OUTCOMES") = vk::kMaxChanceOutcomes;
  py::tuple phases(vk::kNumPhases);
  for (int i = 0; i < vk::kNumPhases; ++i) phases[i] = py::str(vk::kPhaseNames[i]);
  m.attr("PHASES") = phases;

  py::class_<Game>(m, "Game", R"doc(Wikinger for 2-4 players.

Game(num_players=2, *, auction=False, draw13=False, offer_by_colour=False,
     weak_boatsmen=False, special_tiles=False)

The advanced modules (A1-A5) are keyword flags; none is supported yet, so True raises
ValueError. A non-int num_players or a non-bool flag raises TypeError.)doc")
      .def(py::init([](py::handle num_players, py::handle auction, py::handle draw13,
                       py::handle offer_by_colour, py::handle weak_boatsmen,
                       py::handle special_tiles) {
             if (PyBool_Check(num_players.ptr()) || !PyLong_Check(num_players.ptr())) {
               throw py::type_error("num_players must be an int, not " + vk::TypeName(num_players));
             }
             const py::handle flags[] = {auction, draw13, offer_by_colour, weak_boatsmen,
                                         special_tiles};
             bool on[vk::kNumOptions];
             for (int i = 0; i < vk::kNumOptions; ++i) {
               if (!PyBool_Check(flags[i].ptr())) {
                 throw py::type_error(std::string(vk::kOptionNames[i]) + " must be a bool, not " +
                                      vk::TypeName(flags[i]));
               }
               on[i] = flags[i].ptr() == Py_True;
             }
             bool huge;
             const int64_t n = vk::IndexValue(num_players, "num_players", &huge);
             if (huge) {
               throw py::value_error("num_players must be 2, 3 or 4, not " + vk::Text(num_players));
             }
             return vk::MakeGame(n, on);
           }),
           py::arg("num_players") = 2, py::kw_only(), py::arg("auction") = false,
           py::arg("draw13") = false, py::arg("offer_by_colour") = false,
           py::arg("weak_boatsmen") = false, py::arg("special_tiles") = false)
      .def_property_readonly(
          "num_players", [](const Game& g) { return g.num_players; },
          R"doc(The number of players, 2..4.)doc")
      .def_property_readonly(
          "options", [](const Game& g) { return vk::ToPython(vk::OptionsToDict(g.options)); },
          R"doc(The five advanced flags as a dict {name: bool}.)doc")
      .def(
          "num_distinct_actions", [](const Game&) { return vk::kNumDistinctActions; },
          R"doc(The size of the decision id space (2036).)doc")
      .def(
          "max_chance_outcomes", [](const Game&) { return vk::kMaxChanceOutcomes; },
          R"doc(The size of the chance id space (30).)doc")
      .def(
          "observation_shape",
          [](const Game& g) { return py::make_tuple(vk::ObservationSize(g.num_players)); },
          R"doc(The shape of observation_tensor(): (294 + 1545 n + 80 + 22 n,).)doc")
      .def(
          "new_initial_state", [](const Game& g) { return State(g.num_players, g.options); },
          R"doc(The state before the first tile is revealed (round 1, a chance node).)doc")
      .def(
          "state_from_dict",
          [](const Game& g, py::handle d) { return vk::StateFromDict(g, vk::ToValue(d, 0)); },
          py::arg("d"), R"doc(A state from a dict of docs/state.md, checked completely.

TypeError when d is not a dict; ValueError naming the first problem otherwise.)doc")
      .def(
          "deserialize_state",
          [](const Game& g, py::handle data) { return vk::StateFromBytes(&g, vk::Bytes(data)); },
          py::arg("data"), R"doc(A state from the bytes of State.serialize().

TypeError for non-bytes; ValueError for bad bytes or a state state_from_dict would refuse.)doc")
      .def("__eq__",
           [](const Game& g, py::handle other) {
             return py::isinstance<Game>(other) && g == other.cast<const Game&>();
           })
      .def("__hash__",
           [](const Game& g) { return py::hash(py::make_tuple(g.num_players, g.options)); })
      .def("__repr__", &vk::GameRepr)
      .def(py::pickle([](const Game& g) { return py::make_tuple(g.num_players, g.options); },
                      [](py::tuple t) { return Game{t[0].cast<int>(), t[1].cast<int>()}; }));

  py::class_<State>(m, "State", R"doc(One position of a game, with its history.

Made by Game.new_initial_state(), Game.state_from_dict() or Game.deserialize_state().)doc")
      .def(
          "get_game", [](const State& s) { return vk::GameOf(s); },
          R"doc(The game this state belongs to.)doc")
      .def(
          "current_player", [](const State& s) { return vk::CurrentPlayer(s.position); },
          R"doc(The player to move 0..n-1, CHANCE (-1) or TERMINAL (-4).)doc")
      .def(
          "is_chance_node", [](const State& s) { return vk::IsChanceNode(s.position); },
          R"doc(True when the next action is a chance outcome.)doc")
      .def(
          "is_terminal", [](const State& s) { return vk::IsTerminal(s.position); },
          R"doc(True once the game is over.)doc")
      .def("chance_outcomes", &vk::ChanceOutcomeList,
           R"doc([(chance id, count / total)] sorted by id; [] at decision and terminal nodes.)doc")
      .def(
          "legal_actions",
          [](const State& s) {
            int legal[vk::kMaxLegalActions];
            return vk::IntList(legal, vk::LegalActions(s.position, legal));
          },
          R"doc(The sorted legal ids: chance ids at chance nodes, [] at the end.)doc")
      .def("legal_actions_mask", &vk::LegalMask,
           R"doc(numpy bool array of length num_distinct_actions(), True at legal ids.)doc")
      .def("apply_action", &vk::ApplyAction, py::arg("action"),
           R"doc(Apply a decision or chance id, then every forced decision.

TypeError unless action is an int (Python or numpy; bool refused); ValueError when the game is
over or the action is not legal now. The state is unchanged after an error.)doc")
      .def("apply_random_chance", &vk::ApplyRandomChance, py::arg("rng"),
           R"doc(Apply one chance outcome drawn with rng; returns its id.

rng is a numpy.random.Generator (u = rng.random()) or an int seed (u from splitmix64). ValueError
at a decision node; TypeError for another rng type.)doc")
      .def("action_to_string", &vk::ActionString, py::arg("action"),
           R"doc(The string of an id in the space of the current node (chance or decision).)doc")
      .def(
          "string_to_action",
          [](const State&, py::handle text) {
            if (!PyUnicode_Check(text.ptr())) {
              throw py::type_error("an action string must be a str, not " + vk::TypeName(text));
            }
            std::string utf8;
            if (!vk::Utf8(text, &utf8)) {
              throw py::value_error(py::repr(text).cast<std::string>() +
                                    " is not an action string");
            }
            return vk::StringToActionId(utf8);
          },
          py::arg("text"), R"doc(The id of an action string of either space.)doc")
      .def(
          "clone", [](const State& s) { return State(s); }, R"doc(An independent copy.)doc")
      .def("__copy__", [](const State& s) { return State(s); })
      .def(
          "__deepcopy__", [](const State& s, py::handle) { return State(s); }, py::arg("memo"))
      .def(
          "history", [](const State& s) { return s.history; },
          R"doc(Every action applied by apply_action / apply_random_chance (no forced ones).)doc")
      .def("scores", &vk::Scores, R"doc(Fame per player (final once terminal).)doc")
      .def("gold", &vk::GoldList, R"doc(Gold per player.)doc")
      .def("returns", &vk::ReturnList,
           R"doc(At the end 1 shared equally by the winners (B8.9), 0 for the others; zeros
before.)doc")
      .def("observation_tensor", &vk::Observation, py::arg("player"),
           R"doc(numpy float32 array of shape observation_shape(), as seen by player.)doc")
      .def("threatened_mask", &vk::ThreatenedMask, py::arg("player"),
           R"doc(numpy bool (5, 64): [r-1, c-1] is True when a Viking of player on row r, column c
would be threatened (B7.0: a ship of the column reaching row r, not repelled).)doc")
      .def("large_scoring_gains", &vk::LargeScoringGains,
           R"doc([(fame, gold)] per player: what B7.2 steps 2-6 would pay if the large scoring were
scored now, without further boatsman trips; the state is not changed.)doc")
      .def(
          "to_dict", [](const State& s) { return vk::ToPython(vk::StateToDict(s)); },
          R"doc(The canonical dict of docs/state.md.)doc")
      .def(
          "serialize", [](const State& s) { return py::bytes(vk::Serialize(s)); },
          R"doc(The bytes of docs/state.md.)doc")
      .def(
          "hash_key", [](const State& s) { return vk::HashKey(s.position); },
          R"doc(64-bit hash of the position (history excluded).)doc")
      .def("__str__", [](const State& s) { return vk::RenderText(s.position); })
      .def("__eq__", &vk::StatesEqual)
      .def("__reduce__", [](const State& s) {
        return py::make_tuple(py::module_::import("vikinger_fast._core").attr("_state_from_bytes"),
                              py::make_tuple(py::bytes(vk::Serialize(s))));
      });

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
            self.cast<VectorGame&>().WriteLegalMask();
            return vk::View(self, &VectorGame::legal_mask, Columns::kActions);
          },
          R"doc((batch, num_distinct_actions) bool: the legal decisions, rewritten in place.)doc")
      .def(
          "observation_tensor",
          [](py::object self) {
            self.cast<VectorGame&>().WriteObservations();
            return vk::View(self, &VectorGame::observations, Columns::kObservation);
          },
          R"doc((batch, observation size) float32: row i seen by env i's player to move.)doc")
      .def(
          "current_player",
          [](py::object self) {
            self.cast<VectorGame&>().WriteCurrentPlayers();
            return vk::View(self, &VectorGame::players, Columns::kNone);
          },
          R"doc((batch,) int32: the player to move in each environment.)doc")
      .def(
          "step",
          [](py::object self, py::handle actions) {
            vk::StepVectorGame(self.cast<VectorGame&>(), actions);
            return vk::View(self, &VectorGame::done, Columns::kNone);
          },
          py::arg("actions"), R"doc(Apply actions[i] in environment i (GIL released); returns done.

TypeError unless actions are integers (bool refused); ValueError for a wrong shape or an action
not legal in its environment, and then nothing has changed.)doc")
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
      .def_property_readonly("final_observation", [](py::object s) {
        return vk::View(s, &VectorGame::final_observation, Columns::kObservation);
      });

  m.def(
      "_state_from_bytes",
      [](py::handle data) { return vk::StateFromBytes(nullptr, vk::Bytes(data)); }, py::arg("data"),
      R"doc(Unpickle a State from its serialize() bytes.)doc");

  m.def("rollouts", &vk::Rollouts, py::arg("game"), py::arg("num_games"), py::arg("seed"),
        py::arg("threads") = 1, py::arg("policy") = "random",
        R"doc(Play num_games random games in C++ (GIL released); game i uses seed seed + i.

policy "random" samples straight from the legal bit masks; "random_generic" builds the legal list
at every decision. Both play the same games, whatever the number of threads.

Returns a dict of numpy arrays: "scores" (num_games, n) int32 final Fame, "gold" (num_games, n)
int32, "returns" (num_games, n) float64 win shares, "length" (num_games,) int32 actions applied
(chance included). The same games as vikinger_ref.rollouts.)doc");
}

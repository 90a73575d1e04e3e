// The Python module vikinger_fast._core: the OpenSpiel-style API of docs/api.md over the C++
// engine. Thin: it checks Python argument types, converts between Python objects and C++ values
// (value.h trees for dicts, numpy arrays written in place) and holds the docstrings, mirrored in
// src/vikinger_fast/_core.pyi. This file defines Game and State; bindings/batch.cc the batched
// entry points, bindings/hot_state.cc the game-loop methods of State, bindings/helpers.cc the
// argument helpers. The rules and formats live in the other csrc/ files; game.h holds the API
// semantics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api/game.h"
#include "base/rng.h"
#include "base/value.h"
#include "bindings/helpers.h"
#include "formats/dict_writer.h"
#include "formats/observation.h"
#include "formats/serialization.h"
#include "formats/text.h"
#include "rules/actions.h"
#include "rules/legal_set.h"
#include "rules/state.h"

namespace py = pybind11;

namespace vikinger {
namespace {

// --- State methods with Python arguments ----------------------------------------------------

// rng.random() of a Generator, which a subclass may override: a float (Python or numpy) in
// [0, 1), else TypeError / ValueError before anything changes (an outcome outside the counts
// would draw a tile or Viking that is not left).
double GeneratorUniform(py::handle rng) {
  py::object value = rng.attr("random")();
  if (!PyFloat_Check(value.ptr()) && !py::isinstance(value, Numpy().floating_type)) {
    throw py::type_error("rng.random() must return a float, not " + TypeName(value));
  }
  const double u = value.cast<double>();
  if (!(u >= 0.0 && u < 1.0)) {  // NaN fails both comparisons
    throw py::value_error("rng.random() returned " + py::repr(value).cast<std::string>() +
                          ", outside [0, 1)");
  }
  return u;
}

// The data of a pickled Game, checked as a constructed one is (CheckedGame).
Game GameFromData(py::handle num_players, py::handle options) {
  RequireInts({{"num_players", num_players}, {"options", options}});
  bool huge_players;
  bool huge_options;
  const int64_t n = IndexValue(num_players, "num_players", &huge_players);
  const int64_t bits = IndexValue(options, "options", &huge_options);
  if (huge_players) {
    throw py::value_error("num_players must be 2, 3 or 4, not " + Text(num_players));
  }
  if (huge_options) {
    const bool no_flags[kNumOptions] = {};
    MakeGame(n, no_flags);  // the player count is checked first, as by CheckedGame
    throw py::value_error("options must be a bit set of the " + std::to_string(kNumOptions) +
                          " modules (0.." + std::to_string((1 << kNumOptions) - 1) + "), not " +
                          Text(options));
  }
  return CheckedGame(n, bits);
}

int ApplyRandomChance(State& state, py::handle rng) {
  if (!IsChanceNode(state.position)) {
    throw py::value_error("apply_random_chance needs a chance node");
  }
  double u;
  if (py::isinstance(rng, Numpy().generator_type)) {
    u = GeneratorUniform(rng);
  } else if (IsInteger(rng)) {
    u = UniformFromSeed(Seed(rng));  // docs/api.md: the seed mod 2**64, mixed
  } else {
    throw py::type_error("rng must be a numpy.random.Generator or an int seed, not " +
                         TypeName(rng));
  }
  return state.ApplyRandomChance(u);
}

py::array_t<float> Observation(const State& state, py::handle player) {
  const int p = PlayerArg(state, player);
  py::array_t<float> out(ObservationSize(state.position.num_players));
  ObservationTensor(state.position, p, out.mutable_data());
  return out;
}

py::array_t<bool> ThreatenedMask(const State& state, py::handle player) {
  const int p = PlayerArg(state, player);
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

}  // namespace
}  // namespace vikinger

PYBIND11_MODULE(_core, m) {
#if defined(__x86_64__) && defined(__POPCNT__)
  // Built for x86-64-v2 (CMakeLists.txt VIKINGER_ARCH): refuse a CPU without its instructions
  // before any of them runs.
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("sse4.2")) {
    throw py::import_error(
        "vikinger_fast was compiled for x86-64-v2 (POPCNT, SSE4.2), which this CPU lacks; "
        "build it for the baseline: pip install -C cmake.define.VIKINGER_ARCH=x86-64 .");
  }
#endif
  using vikinger::Game;
  using vikinger::State;
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
  py::tuple option_names(vk::kNumOptions);
  for (int i = 0; i < vk::kNumOptions; ++i) option_names[i] = py::str(vk::kOptionNames[i]);
  m.attr("OPTION_NAMES") = option_names;

  py::class_<Game>(m, "Game", R"doc(Wikinger for 2-4 players.

Game(num_players=2, *, auction=False, draw13=False, offer_by_colour=False,
     weak_boatsmen=False, special_tiles=False)

The advanced modules (A1-A5, docs/advanced.md) are keyword flags. A non-int num_players or a
non-bool flag raises TypeError; num_players outside 2..4 raises ValueError.)doc")
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
          [](const Game& g, py::handle d) {
            // Named here: the converted value knows an int subclass only as an int.
            if (!PyDict_Check(d.ptr())) {
              throw py::type_error("state_from_dict needs a dict, not " + vk::TypeName(d));
            }
            return vk::StateFromDict(g, vk::ToValue(d, 0));
          },
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
      .def("__reduce__", [](const Game& g) {
        // Rebuilt by _game_from_data, which checks the data as the constructor does, through
        // a plain Python function: a pybind11 function pickles as a call of builtins.eval,
        // which a restricted unpickler refuses (safety/unpickle.py).
        return py::make_tuple(
            py::module_::import("vikinger_fast.safety.rebuild").attr("game_from_data"),
            py::make_tuple(g.num_players, g.options));
      });

  m.def(
      "_game_from_data", &vk::GameFromData, py::arg("num_players"), py::arg("options"),
      R"doc(Unpickle a Game: 2..4 players and the option bits of docs/state.md (0..31), checked.)doc");

  py::class_<State>(m, "State", R"doc(One position of a game, with its history.

Made by Game.new_initial_state(), Game.state_from_dict() or Game.deserialize_state().)doc")
      .def(
          "get_game", [](const State& s) { return vk::GameOf(s); },
          R"doc(The game this state belongs to.)doc")
      .def("chance_outcomes", &vk::ChanceOutcomeList,
           R"doc([(chance id, count / total)] sorted by id; [] at decision and terminal nodes.)doc")
      .def("legal_actions_mask", &vk::LegalMask,
           R"doc(numpy bool array of length num_distinct_actions(), True at legal ids.)doc")
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
            // Named by its repr, as the reference does: a string of control characters or of
            // unpaired surrogates is shown with escapes.
            std::string utf8;
            const int id = vk::Utf8(text, &utf8) ? vk::StringToAction(utf8) : -1;
            if (id < 0) {
              throw py::value_error(py::repr(text).cast<std::string>() +
                                    " is not an action string");
            }
            return id;
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
        return py::make_tuple(
            py::module_::import("vikinger_fast.safety.rebuild").attr("state_from_bytes"),
            py::make_tuple(py::bytes(vk::Serialize(s))));
      });

  m.def(
      "_state_from_bytes",
      [](py::handle data) { return vk::StateFromBytes(nullptr, vk::Bytes(data)); }, py::arg("data"),
      R"doc(Unpickle a State from its serialize() bytes.)doc");

  // is_terminal, is_chance_node, current_player, legal_actions, apply_action.
  vk::AddHotStateMethods(m.attr("State"));
  vk::DefineBatch(m);
  vk::DefineSearch(m);
  vk::DefineNetwork(m);
  vk::DefineNeural(m);
}

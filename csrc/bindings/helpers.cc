// Argument checks and conversions of the Python module (see helpers.h).
#include "bindings/helpers.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "api/game.h"
#include "rules/actions.h"

namespace vikinger {

// Nesting deeper than any state dict: converted no further (refused by the format checks).
constexpr int kMaxDictDepth = 8;

const NumpyTypes& Numpy() {
  static const NumpyTypes types = [] {
    py::module_ np = py::module_::import("numpy");
    return NumpyTypes{
        py::object(np.attr("bool_")).release(), py::object(np.attr("integer")).release(),
        py::object(np.attr("timedelta64")).release(), py::object(np.attr("floating")).release(),
        py::object(np.attr("random").attr("Generator")).release()};
  }();
  return types;
}

// type(value).__name__, as the reference names types ("int64", not "numpy.int64").
std::string TypeName(py::handle value) {
  return py::str(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(value.ptr()))).attr("__name__"))
      .cast<std::string>();
}

bool IsBool(py::handle value) {
  return PyBool_Check(value.ptr()) || py::isinstance(value, Numpy().bool_type);
}

// isinstance(value, (int, np.integer)), not a bool and not a numpy.timedelta64 (a subclass of
// np.integer that is a duration, not a number).
bool IsInteger(py::handle value) {
  if (IsBool(value)) return false;
  if (PyLong_Check(value.ptr())) return true;
  return py::isinstance(value, Numpy().integer_type) &&
         !py::isinstance(value, Numpy().timedelta_type);
}

// An int from anything with __index__ except bool (docs/api.md: Python and numpy integers).
// `*huge` is set for ints beyond int64 (the result is then their sign), which callers refuse
// naming the original number.
int64_t IndexValue(py::handle value, const char* what, bool* huge) {
  if (IsBool(value)) throw py::type_error(std::string(what) + " must be an int, not bool");
  if (py::isinstance(value, Numpy().timedelta_type)) {
    throw py::type_error(std::string(what) + " must be an int, not " + TypeName(value));
  }
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
  const bool chance = IsChanceNode(state.position);
  throw py::value_error(std::string(chance ? "chance" : "decision") + " id " + Text(action) +
                        " is outside 0.." +
                        std::to_string((chance ? kMaxChanceOutcomes : kNumDistinctActions) - 1));
}

// An int or numpy integer taken modulo 2**64 (seeds).
uint64_t Seed(py::handle value) {
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) throw py::error_already_set();
  const uint64_t seed = PyLong_AsUnsignedLongLongMask(index);
  Py_DECREF(index);
  return seed;
}

uint64_t Uint64Arg(py::handle value, const char* what) {
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) throw py::error_already_set();
  const uint64_t number = PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  if (number == static_cast<uint64_t>(-1) && PyErr_Occurred()) {
    PyErr_Clear();  // OverflowError: negative or beyond 2**64-1
    throw py::value_error(std::string(what) + " " + Text(value) +
                          " is outside 0..18446744073709551615");
  }
  return number;
}

// --- dicts <-> value trees -----------------------------------------------------------------

// A str with characters beyond ASCII, lone surrogates included ("surrogatepass" UTF-8, one
// character each as Python counts them), and repr() of its first such character.
static Value WideText(py::handle text) {
  PyObject* o = text.ptr();
  const Py_ssize_t length = PyUnicode_GET_LENGTH(o);
  Py_ssize_t first = 0;
  while (first < length && PyUnicode_READ_CHAR(o, first) < 0x80) ++first;
  py::object one = py::reinterpret_steal<py::object>(PyUnicode_Substring(o, first, first + 1));
  if (!one) throw py::error_already_set();
  std::string repr;
  if (!Utf8(py::repr(one), &repr)) repr = "?";
  py::object bytes =
      py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(o, "utf-8", "surrogatepass"));
  if (!bytes) throw py::error_already_set();
  return Value::WideStr(std::string(PyBytes_AS_STRING(bytes.ptr()),
                                    static_cast<size_t>(PyBytes_GET_SIZE(bytes.ptr()))),
                        repr);
}

// A key of a dict as a Value tree keeps it: a plain str (printable ASCII without quotes or
// backslashes, as every key of the format is) as it is, any other key as "\x01" followed by
// its repr(), which matches no key of the format and names it as the reference does.
static std::string DictKey(py::handle key) {
  if (PyUnicode_Check(key.ptr())) {
    std::string text;
    bool plain = Utf8(key, &text);
    for (size_t i = 0; plain && i < text.size(); ++i) {
      const unsigned char ch = static_cast<unsigned char>(text[i]);
      plain = ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\';
    }
    if (plain) return text;
  }
  std::string repr;
  if (!Utf8(py::repr(key), &repr)) repr = "<" + TypeName(key) + ">";
  return "\x01" + repr;
}

Value ToValue(py::handle object, int depth) {
  PyObject* o = object.ptr();
  if (o == Py_None) return Value();
  if (PyBool_Check(o)) return Value::Bool(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return Value::Int(v);
    // Saturated, so that every range check refuses it; the message shows the real number.
    return Value::BigInt(overflow > 0 ? INT64_MAX : INT64_MIN, Text(object));
  }
  if (PyUnicode_Check(o)) {
    if (PyUnicode_IS_ASCII(o)) {
      Py_ssize_t length = 0;
      const char* text = PyUnicode_AsUTF8AndSize(o, &length);
      if (text == nullptr) throw py::error_already_set();
      return Value::Str(std::string(text, static_cast<size_t>(length)));
    }
    return WideText(object);
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
      dict.Set(DictKey(item.first), ToValue(item.second, depth + 1));
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

// TypeError unless every argument is an int or numpy integer (bool refused).
void RequireInts(std::initializer_list<std::pair<const char*, py::handle>> args) {
  for (const auto& arg : args) {
    if (!IsInteger(arg.second)) {
      throw py::type_error(std::string(arg.first) + " must be an int, not " + TypeName(arg.second));
    }
  }
}

// --- arguments of the search and batch calls ------------------------------------------------

const State& StateArg(py::handle state, const char* what) {
  if (!py::isinstance<State>(state)) {
    throw py::type_error(std::string(what) + " must be a State, not " + TypeName(state));
  }
  return state.cast<const State&>();
}

const Game& GameArg(py::handle game) {
  if (!py::isinstance<Game>(game)) {
    throw py::type_error("game must be a Game, not " + TypeName(game));
  }
  return game.cast<const Game&>();
}

int64_t CountArg(py::handle value, const char* what) {
  bool huge;
  const int64_t count = IndexValue(value, what, &huge);
  if (count < 0) throw py::value_error(std::string(what) + " must be >= 0, not " + Text(value));
  if (huge) throw py::value_error(std::string(what) + " " + Text(value) + " is too large");
  return count;
}

double SecondsArg(py::handle value, const char* what) {
  if (IsBool(value) || !(PyFloat_Check(value.ptr()) || IsInteger(value) ||
                         py::isinstance(value, Numpy().floating_type))) {
    throw py::type_error(std::string(what) + " must be a number, not " + TypeName(value));
  }
  double seconds = PyFloat_AsDouble(value.ptr());
  if (seconds == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    const bool positive = PyObject_RichCompareBool(value.ptr(), py::int_(0).ptr(), Py_GT);
    seconds = positive ? HUGE_VAL : -HUGE_VAL;
  }
  if (!(seconds > 0.0))
    throw py::value_error(std::string(what) + " must be > 0, not " + Text(value));
  return seconds;
}

int ThreadsArg(py::handle threads) {
  bool huge;
  const int64_t workers = IndexValue(threads, "threads", &huge);
  if (workers < 1) throw py::value_error("threads must be >= 1, not " + Text(threads));
  return static_cast<int>(huge || workers > 256 ? 256 : workers);
}

double RealArg(py::handle value, const char* what) {
  if (IsBool(value) || !(PyFloat_Check(value.ptr()) || IsInteger(value))) {
    throw py::type_error(std::string(what) + " must be a number, not " + TypeName(value));
  }
  const double number = PyFloat_AsDouble(value.ptr());
  if (number == -1.0 && PyErr_Occurred()) {  // an int beyond the double range: +-inf
    PyErr_Clear();
    return PyObject_RichCompareBool(value.ptr(), py::int_(0).ptr(), Py_GT) == 1
               ? std::numeric_limits<double>::infinity()
               : -std::numeric_limits<double>::infinity();
  }
  return number;
}

int64_t IntArg(py::handle value, const char* what) {
  RequireInts({{what, value}});
  bool huge;
  const int64_t v = IndexValue(value, what, &huge);
  if (huge) throw py::value_error(std::string(what) + " " + Text(value) + " is too large");
  return v;
}

py::tuple TupleArg(py::handle value, const char* what) {
  if (!PyTuple_Check(value.ptr())) {
    throw py::type_error(std::string(what) + " must be a tuple, not " + TypeName(value));
  }
  return py::reinterpret_borrow<py::tuple>(value);
}

int PlayerArg(const State& state, py::handle player) {
  if (!IsInteger(player)) throw py::type_error("player must be an int, not " + TypeName(player));
  bool huge;
  const int64_t p = IndexValue(player, "player", &huge);
  if (huge) {
    throw py::value_error("player " + Text(player) + " is outside 0.." +
                          std::to_string(state.position.num_players - 1));
  }
  return CheckPlayer(state, p);
}

Policy PolicyArg(py::handle policy) {
  if (!PyUnicode_Check(policy.ptr())) {
    throw py::type_error("policy must be a str, not " + TypeName(policy));
  }
  std::string policy_name;
  Utf8(policy, &policy_name);
  if (policy_name != "random" && policy_name != "random_generic") {
    throw py::value_error("policy must be one of random, random_generic, not " +
                          py::repr(policy).cast<std::string>());
  }
  return policy_name == "random" ? Policy::kRandom : Policy::kRandomGeneric;
}

BitSelect BitSelectArg(py::handle bit_select) {
  if (!PyUnicode_Check(bit_select.ptr())) {
    throw py::type_error("bit_select must be a str, not " + TypeName(bit_select));
  }
  std::string name;
  Utf8(bit_select, &name);
  if (name == "auto") return BitSelect::kAuto;
  if (name == "table") return BitSelect::kTable;
  if (name == "pdep") {
    if (!PdepIsAvailable()) throw py::value_error("bit_select 'pdep' needs a CPU with BMI2");
    return BitSelect::kPdep;
  }
  throw py::value_error("bit_select must be one of auto, table, pdep, not " +
                        py::repr(bit_select).cast<std::string>());
}

// --- PuctSearch and Network -----------------------------------------------------------------

std::vector<Position> RootsArg(py::handle states, Game* game) {
  if (!py::isinstance<py::sequence>(states) || py::isinstance<py::str>(states)) {
    throw py::type_error("states must be a sequence of State, not " + TypeName(states));
  }
  std::vector<Position> roots;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(states)) {
    if (!py::isinstance<State>(item)) {
      throw py::type_error("every item of states must be a State, not " + TypeName(item));
    }
    const Position& p = item.cast<const State&>().position;
    if (!roots.empty() &&
        (p.num_players != roots[0].num_players || p.options != roots[0].options)) {
      throw py::value_error("states must all be of one game");
    }
    const std::string which =
        "PuctSearch needs decision nodes, states[" + std::to_string(roots.size()) + "] is ";
    if (IsTerminal(p)) throw py::value_error(which + "a terminal state");
    if (IsChanceNode(p)) throw py::value_error(which + "a chance node");
    roots.push_back(p);
  }
  if (roots.empty()) throw py::value_error("states must not be empty");
  *game = Game{roots[0].num_players, roots[0].options};
  return roots;
}

GumbelConfig GumbelArg(py::handle gumbel) {
  GumbelConfig config;
  if (IsBool(gumbel)) {
    config.enabled = PyObject_IsTrue(gumbel.ptr()) == 1;
    return config;
  }
  if (!py::isinstance<py::dict>(gumbel)) {
    throw py::type_error("gumbel must be a bool or a dict of settings, not " + TypeName(gumbel));
  }
  py::dict settings = py::reinterpret_borrow<py::dict>(gumbel);
  for (auto item : settings) {
    const bool known = PyUnicode_Check(item.first.ptr()) &&
                       (py::str(item.first).cast<std::string>() == "max_considered" ||
                        py::str(item.first).cast<std::string>() == "c_visit" ||
                        py::str(item.first).cast<std::string>() == "c_scale");
    if (!known) {
      throw py::value_error("gumbel has no setting " + py::repr(item.first).cast<std::string>() +
                            " (max_considered, c_visit, c_scale)");
    }
  }
  config.enabled = true;
  if (settings.contains("max_considered")) {
    config.max_considered = IntArg(settings["max_considered"], "max_considered");
  }
  if (settings.contains("c_visit")) config.c_visit = RealArg(settings["c_visit"], "c_visit");
  if (settings.contains("c_scale")) config.c_scale = RealArg(settings["c_scale"], "c_scale");
  return config;
}

PlayoutMix MixArg(py::handle playouts, py::handle playout_weight, py::handle playout_seed) {
  PlayoutMix mix;
  mix.count = IntArg(playouts, "playouts");
  if (mix.count < 0 || mix.count > kMaxPlayoutValues) {
    throw py::value_error("playouts must be in 0.." + std::to_string(kMaxPlayoutValues) + ", not " +
                          Text(playouts));
  }
  const double weight = RealArg(playout_weight, "playout_weight");
  if (!(weight >= 0.0 && weight <= 1.0)) {
    throw py::value_error("playout_weight must be in [0, 1], not " + Text(playout_weight));
  }
  mix.weight = static_cast<float>(weight);
  RequireInts({{"playout_seed", playout_seed}});
  mix.seed = Seed(playout_seed);
  return mix;
}

py::array_t<float, py::array::c_style> OutputArg(py::handle value, const char* what, int64_t rows,
                                                 int64_t columns) {
  py::module_ numpy = py::module_::import("numpy");
  if (!py::isinstance(value, numpy.attr("ndarray"))) {
    throw py::type_error(std::string(what) + " must be a numpy.ndarray, not " + TypeName(value));
  }
  py::array array = py::reinterpret_borrow<py::array>(value);
  if (!array.dtype().is(py::dtype::of<float>())) {
    throw py::type_error(std::string(what) + " must be float32, not " +
                         py::str(array.dtype()).cast<std::string>());
  }
  if (array.ndim() != 2 || array.shape(0) != rows || array.shape(1) != columns) {
    throw py::value_error(std::string(what) + " must have shape (" + std::to_string(rows) + ", " +
                          std::to_string(columns) + "), not " +
                          py::str(array.attr("shape")).cast<std::string>());
  }
  return py::array_t<float, py::array::c_style>::ensure(array);
}

const Network& NetworkArg(py::handle network, const Game& game) {
  if (!py::isinstance<Network>(network)) {
    throw py::type_error("network must be a Network, not " + TypeName(network));
  }
  const Network& net = network.cast<const Network&>();
  const Game plays{net.NumPlayers(), net.Options()};
  if (!(plays == game)) {
    throw py::value_error("the network plays " + GameRepr(plays) + ", the search plays " +
                          GameRepr(game));
  }
  return net;
}

// The MLP's shapes were checked by the MLP before (check_weights).
FloatLayer LayerArg(py::handle pair, std::vector<FloatArray>* keep) {
  FloatArray w = FloatArray::ensure(pair[py::int_(0)]);
  FloatArray b = FloatArray::ensure(pair[py::int_(1)]);
  if (!w || !b || w.ndim() != 2 || b.ndim() != 1 || b.shape(0) != w.shape(1)) {
    throw py::value_error("the MLP's arrays are not a layer's (w [in, out], b [out])");
  }
  keep->push_back(w);
  keep->push_back(b);
  return {w.data(), b.data(), static_cast<int>(w.shape(0)), static_cast<int>(w.shape(1))};
}

// The errors of docs/neural.md "The integer network".
const Position& NodeArg(const Network& network, py::handle state, const char* method) {
  const Position& p = StateArg(state).position;
  const Game game{p.num_players, p.options};
  const Game own{network.NumPlayers(), network.Options()};
  if (!(game == own)) {
    throw py::value_error(std::string(method) + " got a state of " + GameRepr(game) +
                          ", the network plays " + GameRepr(own));
  }
  if (IsTerminal(p) || IsChanceNode(p)) {
    throw py::value_error(std::string(method) + " needs a decision node");
  }
  return p;
}

}  // namespace vikinger

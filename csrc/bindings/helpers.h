// Helpers shared by the files of the Python module vikinger_fast._core (bindings/*.cc): argument
// checks and conversions of docs/api.md (which Python values count as ints, seeds, ...), dicts to
// and from value.h trees, and the parts of the module defined outside bindings/module.cc.
#ifndef VIKINGER_BINDINGS_H_
#define VIKINGER_BINDINGS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/game.h"
#include "api/vector_game.h"
#include "base/interrupt.h"
#include "base/value.h"
#include "play/playout.h"
#include "play/rollout.h"
#include "rules/state.h"
#include "search/batched_search.h"
#include "search/gumbel.h"
#include "search/network.h"

namespace vikinger {

namespace py = pybind11;

// numpy types, looked up once (numpy is a dependency of the package).
struct NumpyTypes {
  py::handle bool_type;
  py::handle integer_type;
  py::handle timedelta_type;
  py::handle floating_type;
  py::handle generator_type;
};

const NumpyTypes& Numpy();

std::string TypeName(py::handle value);
// bool or numpy.bool_.
bool IsBool(py::handle value);
// isinstance(value, (int, np.integer)), not a bool, not a numpy.timedelta64.
bool IsInteger(py::handle value);
// An int from anything with __index__ except bool; `*huge` is set for ints beyond int64.
int64_t IndexValue(py::handle value, const char* what, bool* huge);
std::string Text(py::handle value);
// The UTF-8 bytes of a str; false for a str that has none (lone surrogates).
bool Utf8(py::handle text, std::string* out);
// An int or numpy integer taken modulo 2**64 (seeds).
uint64_t Seed(py::handle value);
// An int or numpy integer in 0..2**64-1 (the state of a stream in a pickle): ValueError naming
// `what` outside (the reference's arguments.check_uint64).
uint64_t Uint64Arg(py::handle value, const char* what);
// TypeError unless every argument is an int or numpy integer (bool refused).
void RequireInts(std::initializer_list<std::pair<const char*, py::handle>> args);

// A State / Game argument, or a TypeError naming `what`.
const State& StateArg(py::handle state, const char* what = "state");
const Game& GameArg(py::handle game);
// A count >= 0 (ValueError beyond int64), and a thread count >= 1 capped at 256.
int64_t CountArg(py::handle value, const char* what);
int ThreadsArg(py::handle threads);
// A time budget in seconds: any real number > 0 (numpy floats too), an int beyond the double
// range as +inf (the reference's arguments.check_seconds).
double SecondsArg(py::handle value, const char* what);
// A real number: an int or a float (bool refused), an int beyond the double range as +-inf
// (the reference's arguments.check_real).
double RealArg(py::handle value, const char* what);
// An int within int64: TypeError for a non-int, ValueError "<what> <value> is too large" beyond
// (the reference's arguments.check_int64).
int64_t IntArg(py::handle value, const char* what);
// A tuple (the data of a pickle), or a TypeError naming `what`.
py::tuple TupleArg(py::handle value, const char* what);
// The player argument of a state's method: an int in 0..num_players-1.
int PlayerArg(const State& state, py::handle player);

// rollouts' policy= ("random", "random_generic") and _rollout_position's bit_select= ("auto",
// "table", "pdep").
Policy PolicyArg(py::handle policy);
BitSelect BitSelectArg(py::handle bit_select);

// --- PuctSearch and Network (bindings/neural.cc, bindings/network.cc) ---

// Playouts per leaf at most in playout_values and run's playouts=: a bound, so that no call can
// run for hours.
constexpr int64_t kMaxPlayoutValues = 4096;
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// PuctSearch's states: a sequence of decision nodes of one game, not empty; `*game` set to it.
std::vector<Position> RootsArg(py::handle states, Game* game);
// gumbel=: False/True (off, or on with the defaults), or a dict of some of its settings (on).
GumbelConfig GumbelArg(py::handle gumbel);
// The checked playouts, playout_weight and playout_seed of run / run_batch.
PlayoutMix MixArg(py::handle playouts, py::handle playout_weight, py::handle playout_seed);
// An evaluator output: a float32 ndarray of shape (rows, columns), C-contiguous (copied if not).
py::array_t<float, py::array::c_style> OutputArg(py::handle value, const char* what, int64_t rows,
                                                 int64_t columns);
// The network of run / run_batch, of the search's game `game`.
const Network& NetworkArg(py::handle network, const Game& game);
// A (w, b) pair of an MLP as float32 arrays of its shapes, kept alive in `keep`.
FloatLayer LayerArg(py::handle pair, std::vector<FloatArray>* keep);
// A decision node of the network's game for its method `method`.
const Position& NodeArg(const Network& network, py::handle state, const char* method);

// State.apply_action / action_to_string with any Python argument (docs/api.md "Errors").
void ApplyAction(State& state, py::handle action);
std::string ActionString(const State& state, py::handle action);

// dicts <-> value trees (state_from_dict, to_dict).
Value ToValue(py::handle object, int depth);
py::object ToPython(const Value& value);

// bindings/threads.cc: the poll of an Interrupt owned by a call with the GIL released (it takes
// the GIL and runs Python's signal handlers; true once one raised, KeyboardInterrupt for Ctrl-C).
std::function<bool()> PythonSignalPoll();
// After the C++ work returned: rethrows the exception the poll left set, if it stopped the work.
void ThrowIfInterrupted(const Interrupt& interrupt);

// Holds an object's mutex for one method call. Every method of an object whose calls release
// the GIL takes it, so calls from several Python threads run one after another; a thread that
// must wait does so without the GIL, so the holder can take the GIL back.
class ObjectLock {
 public:
  explicit ObjectLock(std::mutex& mutex);

 private:
  std::unique_lock<std::mutex> lock_;
};

// bindings/hot_state.cc: the State methods of a game loop without pybind11's dispatcher.
void AddHotStateMethods(py::handle state_type);
// bindings/batch.cc: rollouts, _rollout_position and VectorGame.
void DefineBatch(py::module_& m);
// bindings/search.cc: playouts, evaluation, solver and bots (docs/search.md).
void DefineSearch(py::module_& m);
// bindings/network.cc: Network, the integer network evaluated inside the search.
void DefineNetwork(py::module_& m);
// bindings/neural.cc: PuctSearch, the batched search guided by an evaluator (docs/neural.md).
void DefineNeural(py::module_& m);

}  // namespace vikinger

// Every bound class loads through this caster. An instance made by Class.__new__ alone (no
// __init__, e.g. Game.__new__(Game)) holds no C++ object, and pybind11 would hand the method
// uninitialised storage: refuse it with a TypeError instead.
namespace vikinger {
template <typename T>
class InitializedCaster : public pybind11::detail::type_caster_base<T> {
 public:
  bool load(pybind11::handle src, bool convert) {
    if (src && PyObject_TypeCheck(src.ptr(), TypeObject())) {
      auto* inst = reinterpret_cast<pybind11::detail::instance*>(src.ptr());
      const bool constructed = inst->simple_layout
                                   ? inst->simple_holder_constructed
                                   : inst->get_value_and_holder(Info()).holder_constructed();
      if (!constructed) {
        throw pybind11::type_error(std::string(Info()->type->tp_name) +
                                   " object was never initialised (made by __new__ alone)");
      }
    }
    return pybind11::detail::type_caster_base<T>::load(src, convert);
  }

 private:
  static pybind11::detail::type_info* Info() {
    static pybind11::detail::type_info* info = pybind11::detail::get_type_info(typeid(T));
    return info;
  }
  static PyTypeObject* TypeObject() { return Info()->type; }
};
}  // namespace vikinger

namespace pybind11 {
namespace detail {
template <>
class type_caster<vikinger::Game> : public vikinger::InitializedCaster<vikinger::Game> {};
template <>
class type_caster<vikinger::State> : public vikinger::InitializedCaster<vikinger::State> {};
template <>
class type_caster<vikinger::Network> : public vikinger::InitializedCaster<vikinger::Network> {};
template <>
class type_caster<vikinger::VectorGame> : public vikinger::InitializedCaster<vikinger::VectorGame> {
};
}  // namespace detail
}  // namespace pybind11

#endif  // VIKINGER_BINDINGS_H_

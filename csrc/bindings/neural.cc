// PuctSearch in the Python module (docs/neural.md): many PUCT trees, their leaves gathered into
// numpy batches for an evaluator. The tree work releases the GIL and polls for Ctrl-C; the
// batches are numpy views of the object's own buffers (no copy), the evaluator's outputs are read
// in place when C-contiguous, after checks whose messages the reference's batched_search.py
// shares.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/game.h"
#include "bindings/helpers.h"
#include "rules/actions.h"
#include "search/batched_search.h"
#include "search/evaluation.h"
#include "search/mcts.h"

namespace vikinger {
namespace {

struct PySearch {
  std::unique_ptr<BatchedSearch> search;
  Game game;
  std::mutex mutex;
  // The batch arrays of the last gather, reused by the next one when nobody else holds them
  // any more (a gather's arrays are then views of their first rows): no new pages per batch.
  py::array_t<float> observations;
  py::array_t<bool> legal;
};

void Backup(PySearch& self, py::handle logits_arg, py::handle values_arg) {
  ObjectLock lock(self.mutex);
  const int64_t rows = self.search->Pending();
  if (rows == 0) throw py::value_error("backup needs the leaves of a gather, and none are pending");
  const int n = self.search->NumPlayers();
  auto logits = OutputArg(logits_arg, "logits", rows, kNumDistinctActions);
  auto values = OutputArg(values_arg, "values", rows, n);
  const float* l = logits.data();
  const float* v = values.data();
  for (int64_t r = 0; r < rows; ++r) {
    const int bad = self.search->FirstNonFiniteLogit(static_cast<int>(r), l);
    if (bad >= 0) {
      throw py::value_error("logits row " + std::to_string(r) + " is not finite at legal action " +
                            std::to_string(bad));
    }
    for (int k = 0; k < n; ++k) {
      if (!std::isfinite(v[r * n + k])) {
        throw py::value_error("values row " + std::to_string(r) + " is not finite");
      }
    }
  }
  py::gil_scoped_release release;
  self.search->Backup(l, v);
}

// (observations float32[B, width], legal bool[B, A]): new arrays the C++ writes into directly.
py::tuple Gather(py::object self_object, py::handle max_batch_arg) {
  PySearch& self = self_object.cast<PySearch&>();
  const int64_t max_batch = IntArg(max_batch_arg, "max_batch");
  if (max_batch < 1) throw py::value_error("max_batch must be >= 1, not " + Text(max_batch_arg));
  ObjectLock lock(self.mutex);
  if (self.search->Pending() > 0) {
    throw py::value_error("gather: the leaves of the last gather wait for backup (or cancel)");
  }
  Interrupt interrupt(PythonSignalPoll());
  int rows;
  {
    py::gil_scoped_release release;
    rows =
        self.search->Gather(static_cast<int>(std::min<int64_t>(max_batch, INT32_MAX)), &interrupt);
  }
  ThrowIfInterrupted(interrupt);
  const bool reuse = self.observations && self.observations.ref_count() == 1 &&
                     self.legal.ref_count() == 1 && self.observations.shape(0) >= rows;
  if (!reuse) {
    const int64_t capacity = std::max<int64_t>(rows, 1);
    self.observations =
        py::array_t<float>({capacity, static_cast<int64_t>(self.search->ObservationWidth())});
    self.legal = py::array_t<bool>({capacity, static_cast<int64_t>(kNumDistinctActions)});
  }
  float* obs = self.observations.mutable_data();
  bool* mask = self.legal.mutable_data();
  {
    py::gil_scoped_release release;
    for (int r = 0; r < rows; ++r) self.search->WriteRow(r, obs, mask);
  }
  py::slice first(0, rows, 1);
  return py::make_tuple(self.observations[first], self.legal[first]);
}

// The network of run / run_batch (helpers' NetworkArg: of the search's game), with a score
// head when the search blends one in.
const Network& SearchNetworkArg(const PySearch& self, py::handle network) {
  const Network& net = NetworkArg(network, self.game);
  if (self.search->config().score_utility > 0.0 && !net.HasScoreHead()) {
    throw py::value_error(
        "score_utility > 0 needs a network with a score head (score_w, score_b in its weights "
        "file)");
  }
  return net;
}

// One gather, the network's evaluation of its leaves and the backup, all without the GIL; the
// number of leaves evaluated.
int NetworkBatch(PySearch& self, const Network& network, int64_t max_batch, const PlayoutMix& mix) {
  ObjectLock lock(self.mutex);
  if (self.search->Pending() > 0) {
    throw py::value_error("run_batch: the leaves of the last gather wait for backup (or cancel)");
  }
  Interrupt interrupt(PythonSignalPoll());
  int rows;
  {
    py::gil_scoped_release release;
    rows =
        self.search->Gather(static_cast<int>(std::min<int64_t>(max_batch, INT32_MAX)), &interrupt);
    if (rows > 0) self.search->BackupNetwork(network, mix);
  }
  ThrowIfInterrupted(interrupt);
  return rows;
}

// float32[B, n] of the pending leaves: `value_of(position, values)` writes a leaf's value per
// player; row r holds them relative to the leaf's mover (column k: player (mover + k) % n).
template <typename ValueOf>
py::array_t<float> LeafValues(PySearch& self, ValueOf value_of) {
  ObjectLock lock(self.mutex);
  const int rows = self.search->Pending();
  const int n = self.search->NumPlayers();
  py::array_t<float> out({rows, n});
  float* data = out.mutable_data();
  for (int r = 0; r < rows; ++r) {
    const Position& p = self.search->RowPosition(r);
    double values[kMaxPlayers] = {};
    value_of(r, p, values);
    const int mover = CurrentPlayer(p);
    for (int k = 0; k < n; ++k) data[r * n + k] = static_cast<float>(values[(mover + k) % n]);
  }
  return out;
}

// The mean returns of `count` random playouts from each pending leaf (the leaf values of
// AlphaGo's mixed evaluation); playout j of row r uses stream seed + r * count + j, as
// PlayRandomPlayouts numbers them.
py::array_t<float> MeanPlayoutValues(PySearch& self, int64_t count, uint64_t seed) {
  return LeafValues(self, [&](int r, const Position& p, double* values) {
    MeanPlayoutReturns(p, count, seed + static_cast<uint64_t>(r * count),
                       self.search->config().score_utility, self.search->RowCentre(r),
                       self.search->config().score_scale, values);
  });
}

int RunBatch(PySearch& self, py::handle network_arg, py::handle batch_size, py::handle playouts,
             py::handle playout_weight, py::handle playout_seed) {
  const Network& network = SearchNetworkArg(self, network_arg);
  const int64_t max_batch = IntArg(batch_size, "batch_size");
  if (max_batch < 1) throw py::value_error("batch_size must be >= 1, not " + Text(batch_size));
  return NetworkBatch(self, network, max_batch, MixArg(playouts, playout_weight, playout_seed));
}

// One gather, the Python evaluator's call (its values mixed with mix.count playouts per leaf)
// and the backup; the number of leaves evaluated.
int EvaluatorBatch(py::object self_object, py::object evaluator, py::handle batch_size,
                   const PlayoutMix& mix) {
  PySearch& self = self_object.cast<PySearch&>();
  py::tuple batch = Gather(self_object, batch_size);
  const int64_t rows = static_cast<int64_t>(py::len(batch[0]));
  if (rows == 0) return 0;  // only terminal visits this time
  try {
    py::object out = evaluator(batch[0], batch[1]);
    if (!py::isinstance<py::tuple>(out) || py::len(out) != 2) {
      throw py::type_error("evaluator must return (logits, values), not " + TypeName(out));
    }
    py::object values = out[py::int_(1)];
    if (mix.count > 0) {
      // backup's checks first, in its order, so a bad output gets backup's message
      OutputArg(out[py::int_(0)], "logits", rows, kNumDistinctActions);
      auto given = OutputArg(values, "values", rows, self.search->NumPlayers());
      auto mixed = MeanPlayoutValues(self, mix.count, mix.seed);
      float* m = mixed.mutable_data();
      const float* v = given.data();
      for (py::ssize_t i = 0; i < mixed.size(); ++i) m[i] = MixedValue(v[i], m[i], mix.weight);
      values = mixed;
    }
    Backup(self, out[py::int_(0)], values);
  } catch (...) {
    ObjectLock lock(self.mutex);
    self.search->Cancel();
    throw;
  }
  return static_cast<int>(rows);
}

// With max_time, no batch is gathered once that many seconds have passed since the call. The
// playouts of the batches are numbered on from playout_seed (B leaves use B * count streams).
void Run(py::object self_object, py::object evaluator, py::handle batch_size, py::handle max_time,
         py::handle playouts, py::handle playout_weight, py::handle playout_seed) {
  PySearch& self = self_object.cast<PySearch&>();
  const bool network = py::isinstance<Network>(evaluator);
  if (network) {
    SearchNetworkArg(self, evaluator);
  } else if (!PyCallable_Check(evaluator.ptr())) {
    throw py::type_error("evaluator must be callable, not " + TypeName(evaluator));
  }
  const int64_t max_batch = IntArg(batch_size, "batch_size");
  if (max_batch < 1) throw py::value_error("batch_size must be >= 1, not " + Text(batch_size));
  const double seconds = max_time.is_none() ? HUGE_VAL : SecondsArg(max_time, "max_time");
  PlayoutMix mix = MixArg(playouts, playout_weight, playout_seed);
  // A budget of kMaxSeconds or more (inf included) sets no deadline, as for MCTSBot: the
  // clock's int64 nanoseconds could not hold it.
  const bool timed = seconds < kMaxSeconds;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timed ? seconds : 0.0));
  while (!self.search->Done()) {
    if (timed && std::chrono::steady_clock::now() >= deadline) break;
    const int rows = network ? NetworkBatch(self, evaluator.cast<const Network&>(), max_batch, mix)
                             : EvaluatorBatch(self_object, evaluator, batch_size, mix);
    mix.seed += static_cast<uint64_t>(rows) * static_cast<uint64_t>(mix.count);
  }
}

// evaluate() of the pending leaves.
py::array_t<float> HeuristicValues(PySearch& self) {
  return LeafValues(self, [](int, const Position& p, double* values) { Evaluate(p, values); });
}

// playout_values(count, seed): MeanPlayoutValues with checked arguments.
py::array_t<float> PlayoutValues(PySearch& self, py::handle count_arg, py::handle seed_arg) {
  RequireInts({{"count", count_arg}, {"seed", seed_arg}});
  bool huge;
  const int64_t count = IndexValue(count_arg, "count", &huge);
  if (huge || count < 1 || count > kMaxPlayoutValues) {
    throw py::value_error("count must be in 1.." + std::to_string(kMaxPlayoutValues) + ", not " +
                          Text(count_arg));
  }
  return MeanPlayoutValues(self, count, Seed(seed_arg));
}

// Results as arrays over the action space (0 at the actions that are not legal at a root).
py::dict ResultArrays(PySearch& self) {
  ObjectLock lock(self.mutex);
  const int64_t roots = self.search->NumRoots();
  const int64_t n = self.search->NumPlayers();
  const int64_t width = kNumDistinctActions;
  py::array_t<int64_t> visits({roots, width});
  py::array_t<double> priors({roots, width});
  py::array_t<double> q({roots, width});
  py::array_t<double> policy({roots, width});
  py::array_t<bool> legal({roots, width});
  py::array_t<double> value({roots, n});
  py::array_t<double> network_value(roots);
  py::array_t<int64_t> selected(roots);
  std::fill_n(visits.mutable_data(), roots * width, 0);
  std::fill_n(priors.mutable_data(), roots * width, 0.0);
  std::fill_n(q.mutable_data(), roots * width, 0.0);
  std::fill_n(policy.mutable_data(), roots * width, 0.0);
  std::fill_n(legal.mutable_data(), roots * width, false);
  for (int64_t i = 0; i < roots; ++i) {
    const RootStats s = self.search->Root(static_cast<int>(i));
    const int64_t row = i * width;
    for (size_t j = 0; j < s.actions.size(); ++j) {
      const int64_t at = row + s.actions[j];
      visits.mutable_data()[at] = s.visits[j];
      priors.mutable_data()[at] = s.priors[j];
      q.mutable_data()[at] = s.q[j];
      legal.mutable_data()[at] = true;
      if (!s.improved_policy.empty()) policy.mutable_data()[at] = s.improved_policy[j];
    }
    for (int64_t k = 0; k < n; ++k) value.mutable_data()[i * n + k] = s.value[k];
    network_value.mutable_data()[i] = s.network_value;
    selected.mutable_data()[i] = s.selected;
  }
  return py::dict(py::arg("visits") = visits, py::arg("priors") = priors, py::arg("q") = q,
                  py::arg("improved_policy") = policy, py::arg("legal") = legal,
                  py::arg("value") = value, py::arg("network_value") = network_value,
                  py::arg("selected") = selected);
}

py::list Results(PySearch& self) {
  ObjectLock lock(self.mutex);
  py::list out;
  for (int i = 0; i < self.search->NumRoots(); ++i) {
    const RootStats s = self.search->Root(i);
    out.append(py::dict(py::arg("actions") = s.actions, py::arg("visits") = s.visits,
                        py::arg("priors") = s.priors, py::arg("q") = s.q,
                        py::arg("value") = s.value, py::arg("improved_policy") = s.improved_policy,
                        py::arg("network_value") = s.network_value,
                        py::arg("selected") = s.selected));
  }
  return out;
}

bool Advance(PySearch& self, py::handle index_arg, py::handle state) {
  const int64_t index = IntArg(index_arg, "index");
  ObjectLock lock(self.mutex);
  const int64_t count = self.search->NumRoots();
  if (index < 0 || index >= count) {
    throw py::value_error("index " + Text(index_arg) + " is outside 0.." +
                          std::to_string(count - 1));
  }
  const Position& p = StateArg(state).position;
  if (!(Game{p.num_players, p.options} == self.game)) {
    throw py::value_error("advance got a state of " + GameRepr({p.num_players, p.options}) +
                          ", the search plays " + GameRepr(self.game));
  }
  if (IsTerminal(p)) throw py::value_error("advance needs a decision node, not a terminal state");
  if (IsChanceNode(p)) throw py::value_error("advance needs a decision node, not a chance node");
  if (self.search->Pending() > 0) {
    throw py::value_error("advance: the leaves of the last gather wait for backup (or cancel)");
  }
  return self.search->Advance(static_cast<int>(index), p);
}

}  // namespace

void DefineNeural(py::module_& m) {
  namespace vk = vikinger;
  py::class_<vk::PySearch>(m, "PuctSearch", R"doc(PUCT searches of many states, their leaves
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
the same trees as vikinger_ref.PuctSearch.)doc")
      .def(py::init([](py::handle states, py::handle simulations, py::handle seed,
                       py::handle c_init, py::handle c_base, py::handle dirichlet_alpha,
                       py::handle dirichlet_fraction, py::handle virtual_loss, py::handle gumbel,
                       py::handle solver_nodes, py::handle score_utility, py::handle score_scale) {
             auto self = std::make_unique<vk::PySearch>();
             const std::vector<vk::Position> roots = vk::RootsArg(states, &self->game);
             vk::RequireInts({{"seed", seed}});
             vk::PuctConfig config;
             config.simulations = vk::IntArg(simulations, "simulations");
             config.c_init = vk::RealArg(c_init, "c_init");
             config.c_base = vk::RealArg(c_base, "c_base");
             config.dirichlet_alpha = vk::RealArg(dirichlet_alpha, "dirichlet_alpha");
             config.dirichlet_fraction = vk::RealArg(dirichlet_fraction, "dirichlet_fraction");
             config.virtual_loss = vk::IntArg(virtual_loss, "virtual_loss");
             config.gumbel = vk::GumbelArg(gumbel);
             config.solver_nodes = vk::IntArg(solver_nodes, "solver_nodes");
             config.score_utility = vk::RealArg(score_utility, "score_utility");
             config.score_scale = vk::RealArg(score_scale, "score_scale");
             try {
               vk::CheckPuctConfig(config);
             } catch (const std::invalid_argument& error) {
               throw py::value_error(error.what());
             }
             self->search = std::make_unique<vk::BatchedSearch>(roots, vk::Seed(seed), config);
             return self;
           }),
           py::arg("states"), py::kw_only(), py::arg("simulations"), py::arg("seed") = 0,
           py::arg("c_init") = 1.25, py::arg("c_base") = 0.0, py::arg("dirichlet_alpha") = 0.0,
           py::arg("dirichlet_fraction") = 0.25, py::arg("virtual_loss") = 1,
           py::arg("gumbel") = false, py::arg("solver_nodes") = 0, py::arg("score_utility") = 0.0,
           py::arg("score_scale") = 0.0)
      .def("gather", &vk::Gather, py::arg("max_batch") = 256,
           R"doc(Descend the trees (GIL released) until max_batch descents ended (at a new leaf or a
terminal node, backed up at once) or no tree can go on; returns (observations float32[B,
observation_size], legal bool[B, NUM_DISTINCT_ACTIONS]) of the B new leaves, written by the C++
in place (no copy; the buffers of a batch are reused only once nothing refers to them). B is 0
once every search is done.)doc")
      .def("backup", &vk::Backup, py::arg("logits"), py::arg("values"),
           R"doc(Back up the evaluation of the gathered leaves: logits float32[B,
NUM_DISTINCT_ACTIONS] (only legal entries read; they must be finite) and values float32[B,
num_players], finite, relative to the player to move at the leaf.)doc")
      .def(
          "cancel",
          [](vk::PySearch& self) {
            vk::ObjectLock lock(self.mutex);
            self.search->Cancel();
          },
          R"doc(Undo the descents of the gathered leaves; the trees are as before the gather.)doc")
      .def("run", &vk::Run, py::arg("evaluator"), py::arg("batch_size") = 256,
           py::arg("max_time") = py::none(), py::kw_only(), py::arg("playouts") = 0,
           py::arg("playout_weight") = 0.5, py::arg("playout_seed") = 0,
           R"doc(gather, evaluator(observations, legal) -> (logits, values), backup, until every
search is done, or with max_time (seconds > 0) until no batch starts because that time has
passed (the searches may then be unfinished: done is False). An exception from the evaluator (or
Ctrl-C) undoes the batch and propagates.
With a Network as the evaluator the search evaluates its leaves itself, without the GIL
(docs/neural.md "The integer network"). With playouts > 0 a leaf's values are (1 -
playout_weight) * the evaluator's + playout_weight * the mean returns of that many random
playouts (docs/neural.md "Mixed leaf values"): a batch of B leaves uses playout_values(playouts,
seed), the next seed + B * playouts, from playout_seed on.)doc")
      .def("run_batch", &vk::RunBatch, py::arg("network"), py::arg("batch_size") = 256,
           py::kw_only(), py::arg("playouts") = 0, py::arg("playout_weight") = 0.5,
           py::arg("playout_seed") = 0,
           R"doc(One gather of up to batch_size descents, the Network's evaluation of its leaves and
their backup, without the GIL; returns the number of leaves evaluated. With playouts > 0 a leaf's
values are (1 - playout_weight) * the network's + playout_weight * playout_values(playouts,
playout_seed), in float32 as run mixes them.)doc")
      .def("heuristic_values", &vk::HeuristicValues,
           R"doc(evaluate() of the gathered leaves as float32[B, num_players], relative to the
player to move at each leaf: the values of the heuristic evaluator (docs/neural.md).)doc")
      .def("playout_values", &vk::PlayoutValues, py::arg("count"), py::arg("seed"),
           R"doc(The mean returns of count (1..4096) random playouts from each gathered leaf as
float32[B, num_players], relative to the player to move at each leaf; playout j of row r uses
stream seed + r * count + j (docs/neural.md "Mixed leaf values"). With score_utility > 0 each
playout's returns are blended with its final margins (docs/neural.md "Score-aware values").)doc")
      .def("results", &vk::Results,
           R"doc([{"actions", "visits", "priors", "q", "value", "improved_policy", "network_value",
"selected"}] per root: the root's edges in action order (priors as selection used them, q the
mover's mean value), the mean value per player over the root's visits, the completed-Q improved
policy, the evaluator's value of the root for its mover, and the action to play (Gumbel: the
last survivor of sequential halving; PUCT: the most visited, the lowest id on a tie).)doc")
      .def("result_arrays", &vk::ResultArrays,
           R"doc(The results of every root as arrays over the action space (A =
NUM_DISTINCT_ACTIONS, R roots, 0 at the actions not legal at a root): {"visits" int64[R, A],
"priors", "q", "improved_policy" float64[R, A], "legal" bool[R, A], "value" float64[R,
num_players], "network_value" float64[R], "selected" int64[R]}, the entries of results().)doc")
      .def(
          "new_search",
          [](vk::PySearch& self) {
            vk::ObjectLock lock(self.mutex);
            if (self.search->Pending() > 0) {
              throw py::value_error(
                  "new_search: the leaves of the last gather wait for backup (or cancel)");
            }
            self.search->BeginSearch();
          },
          R"doc(Start the next search of every tree: budgets from 0, fresh root noise.)doc")
      .def("advance", &vk::Advance, py::arg("index"), py::arg("state"),
           R"doc(Move tree index to state and start its next search: its subtree is kept when state
is a child of the root (True), else the tree starts anew (False).)doc")
      .def_property_readonly(
          "done",
          [](vk::PySearch& self) {
            vk::ObjectLock lock(self.mutex);
            return self.search->Done();
          },
          R"doc(True once every tree has spent its budget and nothing is pending.)doc")
      .def_property_readonly(
          "pending",
          [](vk::PySearch& self) {
            vk::ObjectLock lock(self.mutex);
            return self.search->Pending();
          },
          R"doc(The number of gathered leaves waiting for backup.)doc")
      .def_property_readonly(
          "observation_size", [](vk::PySearch& self) { return self.search->ObservationWidth(); },
          R"doc(The width of an observation row.)doc");
}

}  // namespace vikinger

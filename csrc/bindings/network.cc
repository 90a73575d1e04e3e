// Network in the Python module (docs/neural.md "The integer network"): built from a loaded
// MLPEvaluator's arrays (one file loader, vikinger_ref/mlp.py, serves both engines), checked by
// the MLP's own checks, and evaluated on states; PuctSearch.run / run_batch evaluate their leaves
// with it (bindings/neural.cc).
#include "search/network.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/helpers.h"
#include "rules/actions.h"

namespace vikinger {
namespace {

Network NetworkFromMlp(py::handle mlp) {
  for (const char* name : {"num_players", "options", "features", "layers", "policy", "value"}) {
    if (!py::hasattr(mlp, name)) {
      throw py::type_error("mlp must be an MLPEvaluator, not " + TypeName(mlp));
    }
  }
  mlp.attr("check_weights")();  // the MLP's checks and messages (finite, shapes, range)
  int options = 0;
  for (py::handle name : mlp.attr("options")) {
    for (int i = 0; i < kNumOptions; ++i) {
      if (py::str(name).cast<std::string>() == kOptionNames[i]) options |= 1 << i;
    }
  }
  const Game game = CheckedGame(mlp.attr("num_players").cast<int64_t>(), options);
  const FeatureSet features = FeatureSetByName(py::str(mlp.attr("features")).cast<std::string>());
  std::vector<FloatArray> keep;
  std::vector<FloatLayer> layers;
  for (py::handle pair : mlp.attr("layers")) layers.push_back(LayerArg(pair, &keep));
  const FloatLayer policy = LayerArg(mlp.attr("policy"), &keep);
  const FloatLayer value = LayerArg(mlp.attr("value"), &keep);
  // The optional score head (mlp.py: None without one).
  const py::object score_pair = py::getattr(mlp, "score", py::none());
  FloatLayer score{};
  if (!score_pair.is_none()) score = LayerArg(score_pair, &keep);
  try {
    return Network(game.num_players, game.options, features, layers, policy, value,
                   score_pair.is_none() ? nullptr : &score);
  } catch (const std::invalid_argument& error) {
    throw py::value_error(error.what());
  }
}

py::tuple Evaluate(const Network& network, py::handle state) {
  const Position& p = NodeArg(network, state, "evaluate");
  int ids[kMaxLegalActions];
  const int num_legal = LegalActions(p, ids);
  py::array_t<float> logits(num_legal);
  py::array_t<float> values(network.NumPlayers());
  Network::Scratch scratch;
  network.Evaluate(p, ids, num_legal, logits.mutable_data(), values.mutable_data(), &scratch);
  return py::make_tuple(logits, values);
}

py::array_t<float> ScoreHead(const Network& network, py::handle state) {
  const Position& p = NodeArg(network, state, "scores");
  if (!network.HasScoreHead()) throw py::value_error("these weights have no score head");
  int ids[kMaxLegalActions];
  const int num_legal = LegalActions(p, ids);
  float logits[kMaxLegalActions], values[kMaxPlayers];
  py::array_t<float> scores(network.NumPlayers());
  Network::Scratch scratch;
  network.Evaluate(p, ids, num_legal, logits, values, &scratch, scores.mutable_data());
  return scores;
}

py::tuple Features(const Network& network, py::handle state) {
  const Position& p = NodeArg(network, state, "features");
  const int size = FeatureWidth(network.Features(), p.num_players);
  std::vector<int32_t> index(size), value(size);
  const int count =
      NetworkFeatures(network.Features(), p, CurrentPlayer(p), index.data(), value.data());
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return index[a] < index[b]; });
  py::array_t<int32_t> indices(count), values(count);
  for (int i = 0; i < count; ++i) {
    indices.mutable_data()[i] = index[order[i]];
    values.mutable_data()[i] = value[order[i]];
  }
  return py::make_tuple(indices, values);
}

}  // namespace

void DefineNetwork(py::module_& m) {
  namespace vk = vikinger;
  py::class_<vk::Network>(m, "Network", R"doc(A vikinger-mlp/1 network in integer arithmetic,
evaluated inside the search (docs/neural.md "The integer network").

Network(mlp): the network of a loaded MLPEvaluator (its arrays, checked by the MLP's own checks),
for the MLP's game; weights scaled by powers of two and rounded to int16, the same numbers as
vikinger_ref.Network. PuctSearch.run(network) and run_batch(network) evaluate their leaves with it
without the GIL.)doc")
      .def(py::init(&vk::NetworkFromMlp), py::arg("mlp"))
      .def("evaluate", &vk::Evaluate, py::arg("state"),
           R"doc((logits float32[k], values float32[num_players]) of a decision node: the logits of
its k legal actions (in legal_actions() order) and the values relative to the player to move.)doc")
      .def("scores", &vk::ScoreHead, py::arg("state"),
           R"doc(The score head's outputs float32[num_players] of a decision node, in [-1, 1],
relative to the player to move: each seat's squashed final margin (docs/learning.md "Score-aware
values"). ValueError for weights without a score head.)doc")
      .def("features", &vk::Features, py::arg("state"),
           R"doc((indices int32[m], values int32[m]): the non-zero entries of the network's
features (docs/neural.md "Features") of a decision node for the player to move, by index, as exact
integers (the observation tensor's float32 rounds gold and Fame above 2^24): the first layer's
input.)doc")
      .def(
          "get_game",
          [](const vk::Network& network) {
            return vk::Game{network.NumPlayers(), network.Options()};
          },
          R"doc(The game the network plays (the MLP's).)doc")
      .def_property_readonly("shifts", &vk::Network::Shifts,
                             R"doc(The scale exponents s (weights times 2^s) of the hidden
layers, the policy head, the value head and, when the network has one, the score head.)doc")
      .def_property_readonly("has_score_head", &vk::Network::HasScoreHead,
                             R"doc(Whether the weights have a score head (score_w, score_b).)doc");
}

}  // namespace vikinger

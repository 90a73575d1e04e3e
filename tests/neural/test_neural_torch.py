"""docs/neural.md "A model from a network library": a PyTorch module as the evaluator of the
batched search. torch comes with the `rl` extra (installed by `.[test]`); the weights are those
of a numpy MLPEvaluator, so the network's outputs can be checked against it."""

import numpy as np
import pytest

import vikinger_fast as vk
from vikinger_fast.neural import MLPEvaluator

torch = pytest.importorskip("torch", reason="torch is not installed (the rl extra has it)")


class TorchEvaluator:
    """evaluator(observations, legal) -> (logits, values) of a torch module with the layers of
    an MLPEvaluator: ReLU hidden layers, a policy head and a softmax value head."""

    def __init__(self, mlp):
        layers = []
        for w, b in mlp.layers:
            linear = torch.nn.Linear(*w.shape)
            linear.weight.data, linear.bias.data = torch.from_numpy(w.T.copy()), torch.from_numpy(b)
            layers += [linear, torch.nn.ReLU()]
        self.body = torch.nn.Sequential(*layers)
        self.heads = []
        for w, b in (mlp.policy, mlp.value):
            head = torch.nn.Linear(*w.shape)
            head.weight.data, head.bias.data = torch.from_numpy(w.T.copy()), torch.from_numpy(b)
            self.heads.append(head)

    @torch.no_grad()
    def __call__(self, observations, legal):
        hidden = self.body(torch.from_numpy(observations))  # no copy: the search's buffer
        logits = self.heads[0](hidden)
        values = torch.softmax(self.heads[1](hidden), dim=1)
        return logits.numpy(), values.numpy()


def test_a_torch_module_guides_the_search():
    game = vk.Game(num_players=2)
    mlp = MLPEvaluator.random(game, hidden=(32,), seed=3)
    evaluator = TorchEvaluator(mlp)
    roots = []
    for seed in range(4):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(seed)
        roots.append(state)
    search = vk.PuctSearch(roots, simulations=24, seed=1)
    observations, legal = search.gather(8)
    logits, values = evaluator(observations, legal)
    expected_logits, expected_values = mlp(observations, legal)
    assert logits.dtype == np.float32 and values.shape == (len(observations), 2)
    np.testing.assert_allclose(logits, expected_logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, expected_values, rtol=1e-4, atol=1e-5)
    search.backup(logits, values)
    search.run(evaluator, 16)
    assert search.done
    for root, result in zip(roots, search.results()):
        assert sum(result["visits"]) > 0
        assert result["selected"] in root.legal_actions()

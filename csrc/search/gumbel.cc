// GumbelRoot (see gumbel.h for the formulas and the schedule).
#include "search/gumbel.h"

#include <algorithm>
#include <cmath>

#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace vikinger {

namespace {

int64_t MaxVisits(const std::vector<int64_t>& visits) {
  int64_t most = 0;
  for (int64_t v : visits) most = std::max(most, v);
  return most;
}

// Edges sorted by score, the higher first, the lower index on a tie.
void SortByScore(std::vector<int>* edges, const std::vector<double>& score) {
  std::sort(edges->begin(), edges->end(),
            [&](int a, int b) { return score[a] > score[b] || (score[a] == score[b] && a < b); });
}

}  // namespace

double GumbelSigma(const GumbelConfig& config, int64_t max_visits, double q) {
  return (config.c_visit + static_cast<double>(max_visits)) * config.c_scale * q;
}

void CompletedQ(const std::vector<double>& priors, const std::vector<int64_t>& visits,
                const std::vector<double>& q, double v_hat, std::vector<double>* completed) {
  int64_t sum_n = 0;
  double sum_p = 0.0;
  double weighted = 0.0;
  for (size_t a = 0; a < visits.size(); ++a) {
    sum_n += visits[a];
    if (visits[a] > 0) {
      sum_p += priors[a];
      weighted += priors[a] * q[a];
    }
  }
  double v_mix = v_hat;
  if (sum_n > 0 && sum_p > 0.0) {
    v_mix = (v_hat + static_cast<double>(sum_n) / sum_p * weighted) /
            (1.0 + static_cast<double>(sum_n));
  }
  completed->resize(visits.size());
  for (size_t a = 0; a < visits.size(); ++a) (*completed)[a] = visits[a] > 0 ? q[a] : v_mix;
}

void ImprovedPolicy(const GumbelConfig& config, const std::vector<double>& priors,
                    const std::vector<int64_t>& visits, const std::vector<double>& q, double v_hat,
                    std::vector<double>* policy) {
  std::vector<double> completed;
  CompletedQ(priors, visits, q, v_hat, &completed);
  const int64_t max_visits = MaxVisits(visits);
  const size_t k = priors.size();
  policy->resize(k);
  double top = 0.0;
  for (size_t a = 0; a < k; ++a) {
    (*policy)[a] = std::log(priors[a]) + GumbelSigma(config, max_visits, completed[a]);
    if (a == 0 || (*policy)[a] > top) top = (*policy)[a];
  }
  double sum = 0.0;
  for (size_t a = 0; a < k; ++a) {
    (*policy)[a] = std::exp((*policy)[a] - top);
    sum += (*policy)[a];
  }
  for (size_t a = 0; a < k; ++a) (*policy)[a] /= sum;
}

void GumbelRoot::Start(const GumbelConfig& config, const std::vector<double>& priors,
                       int64_t simulations, SplitMix64& rng) {
  config_ = config;
  priors_ = priors;
  simulations_ = simulations;
  const int k = static_cast<int>(priors.size());
  base_.resize(k);
  for (int a = 0; a < k; ++a) {
    const double u = (static_cast<double>(rng.Next() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    base_[a] = -std::log(-std::log(u)) + std::log(priors[a]);
  }
  std::vector<int> order(k);
  for (int a = 0; a < k; ++a) order[a] = a;
  SortByScore(&order, base_);
  const int m = static_cast<int>(std::min<int64_t>(config.max_considered, k));
  survivors_.assign(order.begin(), order.begin() + m);
  phases_ = 0;
  while ((int64_t{1} << phases_) < m) ++phases_;
  if (phases_ == 0) phases_ = 1;
  scheduled_.assign(k, 0);
  completed_.assign(k, 0);
  const int64_t survivors = static_cast<int64_t>(survivors_.size());
  per_ = survivors == 1 ? simulations_ : std::max<int64_t>(1, simulations_ / (phases_ * survivors));
}

int GumbelRoot::Next() const {
  int best = -1;
  for (int a : survivors_) {
    if (scheduled_[a] < per_ && (best < 0 || scheduled_[a] < scheduled_[best])) best = a;
  }
  return best;
}

double GumbelRoot::Score(int edge, int64_t max_visits, const std::vector<double>& completed) const {
  return base_[edge] + GumbelSigma(config_, max_visits, completed[edge]);
}

void GumbelRoot::Completed(int edge, const std::vector<int64_t>& visits,
                           const std::vector<double>& q, double v_hat) {
  ++completed_[edge];
  if (survivors_.size() <= 1) return;
  for (int a : survivors_) {
    if (completed_[a] < per_) return;
  }
  Rank(visits, q, v_hat);
  survivors_.resize((survivors_.size() + 1) / 2);
  std::fill(scheduled_.begin(), scheduled_.end(), 0);
  std::fill(completed_.begin(), completed_.end(), 0);
  const int64_t survivors = static_cast<int64_t>(survivors_.size());
  per_ = survivors == 1 ? simulations_ : std::max<int64_t>(1, simulations_ / (phases_ * survivors));
}

void GumbelRoot::Rank(const std::vector<int64_t>& visits, const std::vector<double>& q,
                      double v_hat) {
  std::vector<double> completed;
  CompletedQ(priors_, visits, q, v_hat, &completed);
  const int64_t max_visits = MaxVisits(visits);
  std::vector<double> score(base_.size());
  for (int a : survivors_) score[a] = Score(a, max_visits, completed);
  SortByScore(&survivors_, score);
}

int GumbelRoot::Selected(const std::vector<int64_t>& visits, const std::vector<double>& q,
                         double v_hat) const {
  std::vector<double> completed;
  CompletedQ(priors_, visits, q, v_hat, &completed);
  const int64_t max_visits = MaxVisits(visits);
  int best = survivors_[0];
  double best_score = Score(best, max_visits, completed);
  for (int a : survivors_) {
    const double s = Score(a, max_visits, completed);
    if (s > best_score || (s == best_score && a < best)) {
      best = a;
      best_score = s;
    }
  }
  return best;
}

}  // namespace vikinger

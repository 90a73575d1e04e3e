// GumbelRoot: the root of Gumbel MuZero (Danihelka et al. 2022, "Policy improvement by planning
// with Gumbel"): Gumbel-top-k sampling of the actions to consider, sequential halving of the
// simulation budget among them, and the completed-Q improved policy as the training target
// (docs/neural.md "Gumbel root"). Below the root the tree selects by PUCT (puct.h). The
// reference's gumbel.py does the same operations in the same order.
//
// Symbols: log pi(a) the log prior of legal action a, g(a) = -log(-log(u)) with u = (m + 0.5) *
// 2**-53 from the next 53 bits m of the tree's stream (drawn in action order when the root is
// expanded or a new search starts), N(a) and q(a) the root edge's visits and mean value for the
// mover, v_hat the network value of the root for the mover,
//   sigma(q) = (c_visit + max_b N(b)) * c_scale * q,
//   v_mix = (v_hat + sum_b N(b) / sum_{N(b)>0} pi(b) * sum_{N(b)>0} pi(b) q(b)) / (1 + sum_b N(b)),
//   completedQ(a) = q(a) if N(a) > 0 else v_mix,
//   improved policy pi'(a) = softmax(log pi(a) + sigma(completedQ(a))).
// The considered actions: the m = min(max_considered, legal) highest g(a) + log pi(a) (the lower
// action first on a tie), ranked by that score. Sequential halving: P = ceil(log2 m) phases
// (1 when m = 1); a phase with k survivors gives each of them per = max(1, floor(n / (P * k)))
// visits (n the simulations; with one survivor all that is left), the next descent taking the
// first survivor in rank order with the fewest visits scheduled in this phase; once all of them
// are backed up the ceil(k / 2) best by g(a) + log pi(a) + sigma(completedQ(a)) stay. The
// selected action is the best survivor by that score when the budget is spent.
#ifndef VIKINGER_GUMBEL_H_
#define VIKINGER_GUMBEL_H_

#include <cstdint>
#include <vector>

#include "base/rng.h"

namespace vikinger {

struct GumbelConfig {
  bool enabled = false;
  int64_t max_considered = 16;
  double c_visit = 50.0;
  double c_scale = 1.0;
};

// sigma, v_mix and pi' of the header comment, over the root's edges in action order.
double GumbelSigma(const GumbelConfig& config, int64_t max_visits, double q);
void CompletedQ(const std::vector<double>& priors, const std::vector<int64_t>& visits,
                const std::vector<double>& q, double v_hat, std::vector<double>* completed);
void ImprovedPolicy(const GumbelConfig& config, const std::vector<double>& priors,
                    const std::vector<int64_t>& visits, const std::vector<double>& q, double v_hat,
                    std::vector<double>* policy);

class GumbelRoot {
 public:
  // A new search at an expanded root: draws the Gumbels, picks the considered actions.
  void Start(const GumbelConfig& config, const std::vector<double>& priors, int64_t simulations,
             SplitMix64& rng);
  // The root edge (index in action order) of the next descent, or -1: the phase waits for its
  // backups.
  int Next() const;
  void Schedule(int edge) { ++scheduled_[edge]; }
  void Unschedule(int edge) { --scheduled_[edge]; }
  // A backup through root edge `edge` (visits, q and v_hat as after it): may end the phase.
  void Completed(int edge, const std::vector<int64_t>& visits, const std::vector<double>& q,
                 double v_hat);
  // The best survivor by the phase score.
  int Selected(const std::vector<int64_t>& visits, const std::vector<double>& q,
               double v_hat) const;
  bool started() const { return !survivors_.empty(); }

 private:
  double Score(int edge, int64_t max_visits, const std::vector<double>& completed) const;
  void Rank(const std::vector<int64_t>& visits, const std::vector<double>& q, double v_hat);

  GumbelConfig config_;
  std::vector<double> priors_;
  std::vector<double> base_;        // g(a) + log pi(a)
  std::vector<int> survivors_;      // edge indices in rank order
  std::vector<int64_t> scheduled_;  // this phase, per edge
  std::vector<int64_t> completed_;  // this phase, per edge
  int64_t per_ = 0;
  int64_t phases_ = 1;
  int64_t simulations_ = 0;
};

}  // namespace vikinger

#endif  // VIKINGER_GUMBEL_H_

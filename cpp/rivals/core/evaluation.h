// What the evaluations of games scored "the highest total wins, tied leaders share" have in
// common: turning each seat's projected total into the expected return of one seat.
#pragma once

#include <algorithm>
#include <cmath>

#include "rivals/core/types.h"

namespace rivals {

// A cut-off estimate stays this far inside (-1, 1), so a search prefers a proven result to it.
inline constexpr double kEvaluationScale = 0.9;

// `projected[s]` is seat s's expected final total and `spread` how far the totals may still move
// (a logistic scale, in points). Seat s wins with the softmax probability
// p_s = exp(projected[s] / spread) / sum over seats; a winner gets +1 and each of the n - 1
// losers -1 / (n - 1), so the expected return is (n p - 1) / (n - 1), scaled into (-0.9, 0.9).
// With two seats this is 0.9 tanh((projected[0] - projected[1]) / (2 spread)).
inline double expected_return(const double* projected, int seats, Player player, double spread) {
  const double best = *std::max_element(projected, projected + seats);
  double sum = 0;
  for (int s = 0; s < seats; ++s) sum += std::exp((projected[s] - best) / spread);
  const double win = std::exp((projected[player] - best) / spread) / sum;
  return kEvaluationScale * (seats * win - 1) / (seats - 1);
}

}  // namespace rivals

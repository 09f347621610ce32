// MoveAverages (bots/tree_search.h), the tables behind mcts's and ismcts's mast_epsilon: each
// seat's mean return per action over the simulations recorded so far, the action with the best
// mean chosen, an action the seat never played before any other, and with epsilon 1 a uniform
// choice. Prints "ok", or the first thing that is wrong and exits 1.
#include <cstdio>

#include "expect.h"
#include "rivals/bots/tree_search.h"
#include "rivals/core/rng.h"

int main() {
  using rivals::Action;
  rivals::Rng rng(7);
  rivals::MoveAverages averages;
  averages.reset(2, 5);
  // Simulation 1: seat 0 plays 1 and 2, seat 1 plays 3; seat 0 wins.
  averages.record(0, 1);
  averages.record(0, 2);
  averages.record(1, 3);
  const double first[2] = {1, -1};
  averages.update(first);
  // Simulation 2: seat 0 plays 2, seat 1 plays 4; seat 1 wins. Means: seat 0: 1 -> +1, 2 -> 0;
  // seat 1: 3 -> -1, 4 -> +1.
  averages.record(0, 2);
  averages.record(1, 4);
  const double second[2] = {-1, 1};
  averages.update(second);
  // Nothing recorded since: an update credits nothing.
  const double nothing[2] = {-100, -100};
  averages.update(nothing);

  const Action one_two[2] = {1, 2};
  const Action three_four[2] = {3, 4};
  const Action two_three[2] = {2, 3};
  const Action zero_one_two[3] = {0, 1, 2};
  expect(averages.choose(one_two, 2, 0, 0, rng) == 1, "seat 0 prefers its better action 1");
  expect(averages.choose(three_four, 2, 1, 0, rng) == 4, "seat 1 prefers its better action 4");
  expect(averages.choose(zero_one_two, 3, 0, 0, rng) == 0, "an action never tried comes first");
  // Seat 1's mean for 3 is -1; seat 0 never played 3, so for seat 0 it comes first.
  expect(averages.choose(two_three, 2, 0, 0, rng) == 3, "the seats' averages are kept apart");

  int picked_two = 0;
  for (int k = 0; k < 2000; ++k) picked_two += averages.choose(one_two, 2, 0, 1, rng) == 2;
  expect(picked_two > 850 && picked_two < 1150, "epsilon 1 chooses uniformly");
  int greedy_two = 0;
  for (int k = 0; k < 2000; ++k) greedy_two += averages.choose(one_two, 2, 0, 0.5, rng) == 2;
  expect(greedy_two > 350 && greedy_two < 650, "epsilon 0.5 chooses at random half the time");

  averages.reset(2, 5);
  int after_reset_three = 0;
  for (int k = 0; k < 2000; ++k)
    after_reset_three += averages.choose(three_four, 2, 1, 0, rng) == 3;
  expect(after_reset_three > 850 && after_reset_three < 1150,
         "after a reset no action is known: ties are broken at random");

  return finish();
}

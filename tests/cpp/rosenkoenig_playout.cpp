// Rosenkönig's own random-playout loop (State::random_playout, which core/playout.h's
// play_randomly calls) against the generic loop written out by hand: legal_actions(), a uniform
// pick, apply() with the hash kept move by move. From the same seeds both must play the same
// games and end in the same position, hash included. Prints "ok GAMES" or the first difference.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rivals/core/playout.h"
#include "rivals/rosenkoenig/state.h"

using rivals::Action;
using rivals::Rng;
using rivals::rosenkoenig::Setup;
using rivals::rosenkoenig::State;

namespace {

bool same(const State& a, const State& b, int players) {
  double returns_a[4];
  double returns_b[4];
  a.returns(returns_a);
  b.returns(returns_b);
  bool equal = a.hash() == b.hash() && a.crown() == b.crown() &&
               a.stones(rivals::rosenkoenig::kRed) == b.stones(rivals::rosenkoenig::kRed) &&
               a.stones(rivals::rosenkoenig::kWhite) == b.stones(rivals::rosenkoenig::kWhite) &&
               a.draw_pile() == b.draw_pile() && a.discard() == b.discard() &&
               a.stones_left() == b.stones_left() &&
               std::memcmp(returns_a, returns_b, sizeof(double) * players) == 0;
  for (int seat = 0; seat < players; ++seat)
    equal = equal && a.hand(seat) == b.hand(seat) && a.heroes(seat) == b.heroes(seat);
  return equal;
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 10000;
  for (const int players : {2, 4}) {
    Setup setup;
    setup.players = static_cast<std::int8_t>(players);
    setup.hand_limit = static_cast<std::int8_t>(players == 2 ? 5 : 3);
    setup.heroes = static_cast<std::int8_t>(players == 2 ? 4 : 2);
    const State initial(setup);
    for (int game = 0; game < games; ++game) {
      // Half the games start the fast loop from a position reached by apply(), as MCTS does.
      const int head = game % 2 == 0 ? 0 : game % 97;
      State by_hand = initial;
      Rng rng_by_hand(static_cast<std::uint64_t>(game));
      Action buffer[State::kMaxLegalActions];
      int length_by_hand = 0;
      while (!by_hand.is_terminal()) {
        Action action;
        if (by_hand.is_chance_node()) {
          action = by_hand.sample_chance(rng_by_hand);
        } else {
          const int count = by_hand.legal_actions(buffer);
          action = buffer[rng_by_hand.below(static_cast<std::uint32_t>(count))];
        }
        by_hand.apply(action);
        ++length_by_hand;
      }
      State fast = initial;
      Rng rng_fast(static_cast<std::uint64_t>(game));
      int length_fast = 0;
      for (; length_fast < head && !fast.is_terminal(); ++length_fast) {
        if (fast.is_chance_node()) {
          fast.apply(fast.sample_chance(rng_fast));
        } else {
          const int count = fast.legal_actions(buffer);
          fast.apply(buffer[rng_fast.below(static_cast<std::uint32_t>(count))]);
        }
      }
      length_fast += rivals::play_randomly(fast, rng_fast);
      if (length_fast != length_by_hand || !same(fast, by_hand, players)) {
        std::printf("players %d game %d: lengths %d and %d or the final positions differ\n",
                    players, game, length_fast, length_by_hand);
        return 1;
      }
    }
  }
  std::printf("ok %d\n", games);
  return 0;
}

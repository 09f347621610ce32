// The games' random_decision (core/playout.h) against the generic pick it replaces: along random
// games, at every decision, two generators in the same state give random_decision() and
// legal_actions()[below(count)]; the actions must be the same and the generators must have drawn
// the same numbers. Prints one line per game and "ok", or the first difference and exits 1.
#include <cstdio>

#include "game_from.h"
#include "rivals/core/rng.h"
#include "rivals/rheinlaender/game.h"
#include "rivals/rosenkoenig/game.h"

namespace {

template <class G>
bool check(const char* label, const G& game, int games, std::uint64_t seed) {
  using State = typename G::State;
  long decisions = 0;
  rivals::Action legal[State::kMaxLegalActions];
  for (int g = 0; g < games; ++g) {
    State state = game.initial_state();
    rivals::Rng chance(seed + static_cast<std::uint64_t>(g));
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        state.apply(state.sample_chance(chance));
        continue;
      }
      rivals::Rng fast(chance.next());
      rivals::Rng listed = fast;
      const rivals::Action picked = state.random_decision(fast);
      const int count = state.legal_actions(legal);
      const rivals::Action expected = legal[listed.below(static_cast<std::uint32_t>(count))];
      if (picked != expected || fast.next() != listed.next()) {
        std::printf("%s game %d decision %ld: random_decision %d, the list's pick %d of %d\n",
                    label, g, decisions, picked, expected, count);
        return false;
      }
      ++decisions;
      state.apply(picked);
    }
  }
  std::printf("%s: %ld decisions\n", label, decisions);
  return decisions > 0;
}

}  // namespace

int main() {
  using rivals::Json;
  using rivals::rheinlaender::Rheinlaender;
  using rivals::rosenkoenig::Rosenkoenig;
  bool ok = check("rosenkoenig 2", game_from<Rosenkoenig>(Json::object()), 300, 1);
  ok = ok && check("rosenkoenig 4", game_from<Rosenkoenig>(Json::object({{"players", 4}})), 300, 2);
  ok = ok && check("rheinlaender 3", game_from<Rheinlaender>(Json::object()), 60, 3);
  ok =
      ok && check("rheinlaender 5", game_from<Rheinlaender>(Json::object({{"players", 5}})), 40, 4);
  std::printf("%s\n", ok ? "ok" : "failed");
  return ok ? 0 : 1;
}

// The games' sees_chance (game_concept.h, PartlyHiddenChance) agrees with their information state
// strings, which the differential test holds to the Python reference: along random games, at each
// of the first chance nodes of every game, for every observer, two outcomes give one information
// state exactly when the observer sees neither (Battlecards' conflict draw shows every card but a
// kept one drawn by the other side).
// Prints one line per game and "ok", or the first disagreement and exits 1.
#include <cstdio>
#include <string>
#include <vector>

#include "game_from.h"
#include "rivals/battlecards/game.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/rng.h"
#include "rivals/rheinlaender/game.h"
#include "rivals/verraeter/game.h"

namespace {

template <rivals::PartlyHiddenChance G>
bool check(const char* label, const G& game, int games, long max_chance_nodes, std::uint64_t seed) {
  using State = typename G::State;
  rivals::Rng rng(seed);
  long nodes = 0, seen = 0, hidden = 0;
  for (int g = 0; g < games; ++g) {
    State state = game.initial_state();
    std::vector<rivals::Action> history;
    rivals::Action legal[State::kMaxLegalActions];
    rivals::ChanceOutcome outcomes[State::kMaxChanceOutcomes];
    for (long c = 0; c < max_chance_nodes && !state.is_terminal();) {
      if (!state.is_chance_node()) {
        const int count = state.legal_actions(legal);
        const rivals::Action action = legal[rng.below(static_cast<std::uint32_t>(count))];
        state.apply(action);
        history.push_back(action);
        continue;
      }
      const int count = state.chance_outcomes(outcomes);
      if (count > 1) {
        ++c;
        ++nodes;
        for (rivals::Player observer = 0; observer < game.num_players(); ++observer) {
          std::vector<std::string> views;
          for (int k = 0; k < count; ++k) {
            State after = state;
            after.apply(outcomes[k].action);
            history.push_back(outcomes[k].action);
            views.push_back(game.information_state_string(after, history, observer));
            history.pop_back();
          }
          std::vector<bool> sees;
          for (int k = 0; k < count; ++k) {
            sees.push_back(game.sees_chance(state, outcomes[k].action, observer));
            (sees.back() ? seen : hidden) += 1;
          }
          for (int a = 0; a < count; ++a)
            for (int b = a + 1; b < count; ++b)
              if ((views[a] == views[b]) != (!sees[a] && !sees[b])) {
                std::printf("%s: after %zu actions seat %d %s outcomes %d and %d\n", label,
                            history.size(), observer,
                            views[a] == views[b] ? "cannot tell apart" : "tells apart",
                            outcomes[a].action, outcomes[b].action);
                return false;
              }
        }
      }
      const rivals::Action outcome = state.sample_chance(rng);
      state.apply(outcome);
      history.push_back(outcome);
    }
  }
  std::printf("%s: %ld chance nodes, %ld seen and %ld hidden (outcome, observer) pairs\n", label,
              nodes, seen, hidden);
  return seen > 0 && hidden > 0;
}

}  // namespace

int main() {
  using rivals::Json;
  bool ok =
      check("verraeter 4", game_from<rivals::verraeter::Verraeter>(Json::object()), 4, 400, 1);
  ok = ok &&
       check("verraeter 3", game_from<rivals::verraeter::Verraeter>(Json::object({{"players", 3}})),
             4, 400, 2);
  ok = ok &&
       check("battlecards", game_from<rivals::battlecards::Battlecards>(Json::object()), 3, 300, 3);
  ok = ok && check("rheinlaender 3", game_from<rivals::rheinlaender::Rheinlaender>(Json::object()),
                   3, 200, 4);
  ok = ok && check("rheinlaender 5",
                   game_from<rivals::rheinlaender::Rheinlaender>(Json::object({{"players", 5}})), 1,
                   80, 5);
  std::printf("%s\n", ok ? "ok" : "failed");
  return ok ? 0 : 1;
}

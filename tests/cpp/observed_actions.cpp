// The games' observed_action (game_concept.h, PartlyHiddenDecisions) agrees with their
// information state strings, which the differential test holds to the Python reference: along
// random games (Battlecards' first 250 decisions), for every decision, observer and pair of legal
// actions, two actions share an observed id exactly when the observer's information state records
// them alike, a hidden decision's id lies at or above num_distinct_actions() and a seen one is the
// action itself. Prints one line per game and "ok", or the first disagreement and exits 1.
#include <cstdio>
#include <string>
#include <vector>

#include "game_from.h"
#include "rivals/battlecards/game.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/rng.h"
#include "rivals/verraeter/game.h"

namespace {

// The line the information state of `observer` adds for the last action of `history`.
template <class G>
std::string event_line(const G& game, const typename G::State& after,
                       const std::vector<rivals::Action>& history, rivals::Player observer,
                       std::size_t prefix_length) {
  const std::string text = game.information_state_string(after, history, observer);
  const std::size_t start = prefix_length + 1;  // past the newline that opens the event
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

template <rivals::PartlyHiddenDecisions G>
bool check(const char* label, const G& game, int games, long max_decisions, std::uint64_t seed) {
  using State = typename G::State;
  rivals::Rng rng(seed);
  long decisions = 0;
  long hidden = 0;
  for (int g = 0; g < games; ++g) {
    State state = game.initial_state();
    std::vector<rivals::Action> history;
    rivals::Action legal[State::kMaxLegalActions];
    for (long d = 0; d < max_decisions && !state.is_terminal();) {
      if (state.is_chance_node()) {
        const rivals::Action outcome = state.sample_chance(rng);
        state.apply(outcome);
        history.push_back(outcome);
        continue;
      }
      const int count = state.legal_actions(legal);
      const rivals::Player mover = state.current_player();
      for (rivals::Player observer = 0; observer < game.num_players(); ++observer) {
        const std::size_t prefix = game.information_state_string(state, history, observer).size();
        std::vector<std::string> lines;
        std::vector<rivals::Action> seen;
        for (int k = 0; k < count; ++k) {
          State after = state;
          after.apply(legal[k]);
          history.push_back(legal[k]);
          lines.push_back(event_line(game, after, history, observer, prefix));
          history.pop_back();
          seen.push_back(game.observed_action(state, legal[k], observer));
          const bool is_hidden = seen.back() >= game.num_distinct_actions();
          hidden += is_hidden;
          if (is_hidden ? (observer == mover) : (seen.back() != legal[k])) {
            std::printf("%s: action %d of seat %d seen by seat %d as %d\n", label, legal[k], mover,
                        observer, seen.back());
            return false;
          }
        }
        for (int a = 0; a < count; ++a)
          for (int b = 0; b < count; ++b)
            if ((seen[a] == seen[b]) != (lines[a] == lines[b])) {
              std::printf(
                  "%s: seat %d sees actions %d and %d as %d and %d, recorded '%s' and '%s'\n",
                  label, observer, legal[a], legal[b], seen[a], seen[b], lines[a].c_str(),
                  lines[b].c_str());
              return false;
            }
      }
      ++decisions;
      ++d;
      const rivals::Action action = legal[rng.below(static_cast<std::uint32_t>(count))];
      state.apply(action);
      history.push_back(action);
    }
  }
  std::printf("%s: %ld decisions, %ld hidden (action, observer) pairs\n", label, decisions, hidden);
  return hidden > 0;
}

}  // namespace

int main() {
  using rivals::Json;
  bool ok =
      check("verraeter 4", game_from<rivals::verraeter::Verraeter>(Json::object()), 3, 1000, 1);
  ok = ok &&
       check("verraeter 3", game_from<rivals::verraeter::Verraeter>(Json::object({{"players", 3}})),
             3, 1000, 2);
  ok = ok &&
       check("battlecards", game_from<rivals::battlecards::Battlecards>(Json::object()), 2, 250, 3);
  std::printf("%s\n", ok ? "ok" : "failed");
  return ok ? 0 : 1;
}

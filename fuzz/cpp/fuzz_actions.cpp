// Bytes -> a game of make_game (any registered game), its parameters (each default kept, nudged,
// or replaced by a value of another kind) and a sequence of actions applied through the checked
// AnyState API: mostly legal actions, to reach deep positions, else ids near the action range or
// any 32-bit int. See checked_apply and check_history for what must hold.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "rivals/core/registry.h"

namespace {

using rivals::Action;
using rivals::AnyGame;
using rivals::Json;

// A game's parameter object as the input chooses it; null means the default.
Json choose_params(const Json& defaults, rivals::fuzz::Reader& in) {
  Json params = Json::object();
  for (const auto& [key, value] : defaults.as_object()) {
    const std::uint8_t kind = in.byte();
    if (kind < 192) continue;
    if (kind < 224 && value.is_int()) {
      params.set(key, Json(value.as_int() + static_cast<std::int8_t>(in.byte())));
    } else if (kind < 240) {
      params.set(key, Json(static_cast<std::int64_t>(in.byte() % 16) - 1));
    } else {
      const Json others[] = {Json("fuzz"),
                             Json(true),
                             Json(1.5),
                             Json::array(),
                             Json::object(),
                             Json(std::int64_t{-2147483648LL}),
                             Json("/nonexistent/data.json")};
      params.set(key, others[in.byte() % std::size(others)]);
    }
  }
  return params;
}

// Games are immutable, and loading one may parse a data file, so each parameter set is made once.
std::shared_ptr<const AnyGame> game_for(const std::string& name, const Json& params) {
  static std::map<std::string, std::shared_ptr<const AnyGame>> games;
  const std::string key = name + params.dump();
  if (const auto found = games.find(key); found != games.end()) return found->second;
  if (games.size() > 4096) games.clear();
  std::shared_ptr<const AnyGame> game;
  try {
    game = rivals::make_game(name, params);
  } catch (const std::invalid_argument&) {
  }
  games.emplace(key, game);
  return game;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> names = rivals::game_names();
  static std::map<std::string, Json> defaults;
  rivals::fuzz::Reader in(data, size);
  // A pin overrides the choice byte without replacing it, so a stored input decodes as it did.
  const std::string& chosen = names[in.byte() % names.size()];
  const std::string name = in.pinned("game", chosen);
  if (std::find(names.begin(), names.end(), name) == names.end()) return 0;
  if (defaults.find(name) == defaults.end()) defaults[name] = rivals::make_game(name)->params();
  const auto game = game_for(name, choose_params(defaults[name], in));
  if (!game) return 0;

  auto state = game->new_initial_state();
  std::vector<float> obs(static_cast<std::size_t>(game->observation_size()));
  rivals::fuzz::check_state(*state, obs);
  bool ended = false;
  while (!in.empty() && !ended) {
    ended = state->is_terminal();  // one action after the end, which must raise, then stop
    const std::uint8_t kind = in.byte();
    const std::vector<Action> legal = state->legal_actions();
    const int range =
        state->is_chance_node() ? game->max_chance_outcomes() : game->num_distinct_actions();
    Action action;
    if (kind < 192 && !legal.empty())
      action = legal[in.uint(2) % legal.size()];
    else if (kind < 240)
      action = static_cast<Action>(in.uint(2) % static_cast<std::uint32_t>(range + 8)) - 4;
    else
      action = static_cast<Action>(in.uint(4));
    rivals::fuzz::checked_apply(*state, action, obs);
  }
  rivals::fuzz::check_history(*state, static_cast<std::uint64_t>(size));
  return 0;
}

// Arbitrary JSON as a network (core/network.h) for every registered game: the input, written to a
// file and (when it is an object) as the document itself, is the `network` of an `alphabeta` bot
// with `evaluation: "net"`. A file and its document are refused alike or both make a bot; a bot
// made plays a random game's decisions by a one-ply search, and every value the network gives is
// finite and inside (-1, 1).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "rivals/core/registry.h"

namespace {

using rivals::Json;

std::unique_ptr<rivals::AnyBot> bot_of(const rivals::AnyGame& game, Json network) {
  try {
    return game.make_bot(
        {"alphabeta",
         Json::object({{"depth", 1}, {"evaluation", "net"}, {"network", std::move(network)}})},
        0);
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

void play(const rivals::AnyGame& game, rivals::AnyBot& bot, std::uint64_t seed) {
  auto state = game.new_initial_state();
  const Json network = *bot.params().find("network");
  for (int ply = 0; ply < 200 && !state->is_terminal(); ++ply) {
    const auto legal = state->legal_actions();
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    if (!state->is_chance_node()) {
      for (rivals::Player p = 0; p < game.num_players(); ++p) {
        const double value = state->evaluate(p, "net", network);
        RIVALS_FUZZ_CHECK(std::isfinite(value) && value > -1 && value < 1, *state,
                          "a network's value outside (-1, 1): " + std::to_string(value));
      }
      const rivals::Action chosen = bot.step(*state);
      RIVALS_FUZZ_CHECK(state->is_legal(chosen), *state, "the bot chose an illegal action");
    }
    state->apply_action(legal[(seed >> 33) % legal.size()]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> games = rivals::game_names();
  const auto input = rivals::fuzz::json_input(data, size, "network");
  if (!input) return 0;
  const auto& [document, path, seed] = *input;
  for (const auto& name : games) {
    const auto game = rivals::make_game(name);
    const auto from_file = bot_of(*game, Json(path));
    if (document.is_object()) {
      const auto inline_bot = bot_of(*game, document);
      if ((from_file == nullptr) != (inline_bot == nullptr)) {
        std::fprintf(stderr, "FUZZ FAILURE: %s: a network file and its document differ\n",
                     name.c_str());
        std::abort();
      }
    }
    if (from_file != nullptr) play(*game, *from_file, seed);
  }
  return 0;
}

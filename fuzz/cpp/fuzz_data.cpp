// Arbitrary JSON as each game's data parameter: every parameter of every registered game whose
// default is null (one data file: a map, a card set) or an empty list (several: expansions) gets
// the input, written to a file and (when it is an object) as the document itself, through
// make_game. A file and its document make the same game or fail alike; each either throws
// std::invalid_argument or makes a game that plays a random game to its end through the checked
// API with every invariant of fuzz_common.h holding, whose history rebuilds it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_common.h"
#include "rivals/core/registry.h"

namespace {

using rivals::Json;

struct DataParam {
  std::string game;
  std::string key;
  bool as_list;
};

std::vector<DataParam> discover() {
  std::vector<DataParam> found;
  for (const auto& name : rivals::game_names()) {
    const auto game = rivals::make_game(name);
    for (const auto& [key, value] : game->params().as_object())
      if (value.is_null() || (value.is_array() && value.as_array().empty()))
        found.push_back({name, key, value.is_array()});
  }
  return found;
}

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void play(const rivals::AnyGame& game, std::uint64_t seed) {
  auto state = game.new_initial_state();
  std::vector<float> obs(static_cast<std::size_t>(game.observation_size()));
  rivals::fuzz::check_state(*state, obs);
  std::uint64_t rng = seed;
  while (!state->is_terminal()) {
    const auto legal = state->legal_actions();
    rivals::fuzz::checked_apply(*state, legal[splitmix(rng) % legal.size()], obs);
  }
  rivals::fuzz::check_history(*state, seed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<DataParam> params = discover();
  const auto input = rivals::fuzz::json_input(data, size, "data");
  if (!input) return 0;
  const auto& [document, path, seed] = *input;
  // Each parameter gets the text as a file and, when it is an object, as the document itself:
  // both must make the same game or fail alike.
  for (const auto& param : params) {
    std::shared_ptr<rivals::AnyGame> from_file, inline_game;
    const auto wrap = [&](Json value) {
      return param.as_list ? Json(Json::Array{std::move(value)}) : value;
    };
    try {
      from_file = rivals::make_game(param.game, Json::object({{param.key, wrap(Json(path))}}));
    } catch (const std::invalid_argument&) {
    }
    if (document.is_object()) {
      try {
        inline_game = rivals::make_game(param.game, Json::object({{param.key, wrap(document)}}));
      } catch (const std::invalid_argument&) {
      }
      if ((from_file == nullptr) != (inline_game == nullptr) ||
          (from_file != nullptr && !from_file->same_rules(*inline_game))) {
        std::fprintf(stderr, "FUZZ FAILURE: %s %s: a file and its document differ\n",
                     param.game.c_str(), param.key.c_str());
        std::abort();
      }
    }
    if (from_file != nullptr) play(*from_file, seed);
  }
  return 0;
}

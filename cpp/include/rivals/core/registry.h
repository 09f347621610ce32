// Games by name: the single place that knows which games exist.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rivals/core/any_game.h"
#include "rivals/core/json.h"

namespace rivals {

// Sorted names of every game in the library.
std::vector<std::string> game_names();

// Sorted names of every bot that plays at least one game (each game's are in its GameInfo::bots).
std::vector<std::string> bot_names();

// Throws std::invalid_argument for an unknown game (listing the known ones) or bad parameters.
std::shared_ptr<AnyGame> make_game(const std::string& name, const Json& params = Json::object());

}  // namespace rivals

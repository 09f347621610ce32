// Games by name. The engine's own games are found by the build (every folder cpp/rivals/<game>/
// with a register.cpp); a program can add games of its own with register_game, or with
// RIVALS_REGISTER_GAME in a file of its own (rivals/adapter/registration.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rivals/core/any_game.h"
#include "rivals/core/json.h"

namespace rivals {

using GameFactory = std::shared_ptr<AnyGame> (*)(const Json& params);

// Sorted names of every game registered: the engine's and those a program added.
std::vector<std::string> game_names();

// Sorted names of every bot that plays at least one game (each game's are in its GameInfo::bots).
std::vector<std::string> bot_names();

// Throws std::invalid_argument for an unknown game (listing the known ones) or bad parameters.
std::shared_ptr<AnyGame> make_game(const std::string& name, const Json& params = Json::object());

// Makes `factory` the game `name` for make_game and game_names. A name is lower-case letters,
// digits and underscores, starting with a letter; a name taken by another factory is refused
// (std::invalid_argument), the same factory again changes nothing. Returns true, so that a
// namespace-scope constant can register a game when the program starts.
bool register_game(const std::string& name, GameFactory factory);

}  // namespace rivals

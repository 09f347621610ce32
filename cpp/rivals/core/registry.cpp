#include "rivals/core/registry.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "rivals/core/error.h"

namespace rivals {

// The engine's games, one RIVALS_ENGINE_GAME(<game>) line each, written by the build from the game
// folders (cmake/GameList.cmake); each folder's register.cpp defines its factory. Naming them here
// is also what links every game of the engine into a program, since nothing else refers to a
// register.cpp.
namespace registered {
#define RIVALS_ENGINE_GAME(name) std::shared_ptr<AnyGame> make_##name(const Json& params);
#include "engine_games.inc"
#undef RIVALS_ENGINE_GAME
}  // namespace registered

namespace {

const std::vector<std::pair<std::string, GameFactory>>& engine_games() {
#define RIVALS_ENGINE_GAME(name) {#name, &registered::make_##name},
  static const std::vector<std::pair<std::string, GameFactory>> games = {
#include "engine_games.inc"
  };
#undef RIVALS_ENGINE_GAME
  return games;
}

struct Registry {
  std::mutex mutex;
  std::map<std::string, GameFactory> factories;
};

Registry& registry() {
  static Registry* const instance = [] {
    auto* made = new Registry;  // never destroyed: a game may be made while the program ends
    for (const auto& [name, factory] : engine_games()) made->factories.emplace(name, factory);
    return made;
  }();
  return *instance;
}

bool is_game_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::vector<std::pair<std::string, GameFactory>> snapshot() {
  Registry& games = registry();
  const std::lock_guard<std::mutex> lock(games.mutex);
  return {games.factories.begin(), games.factories.end()};
}

}  // namespace

bool register_game(const std::string& name, GameFactory factory) {
  if (!is_game_name(name))
    throw InvalidArgument("a game name is lower-case letters, digits and underscores, not " +
                          quoted(name));
  if (factory == nullptr) throw InvalidArgument("game " + quoted(name) + " has no factory");
  Registry& games = registry();
  const std::lock_guard<std::mutex> lock(games.mutex);
  const auto [where, added] = games.factories.emplace(name, factory);
  if (!added && where->second != factory)
    throw InvalidArgument("a game named " + quoted(name) + " is already registered");
  return true;
}

std::vector<std::string> game_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : snapshot()) names.push_back(name);
  return names;  // sorted: the registry is a std::map
}

std::vector<std::string> bot_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : snapshot()) {
    const std::shared_ptr<AnyGame> game = factory(Json::object());
    for (const auto& bot : game->info().bots)
      if (std::find(names.begin(), names.end(), bot) == names.end()) names.push_back(bot);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::shared_ptr<AnyGame> make_game(const std::string& name, const Json& params) {
  GameFactory factory = nullptr;
  {
    Registry& games = registry();
    const std::lock_guard<std::mutex> lock(games.mutex);
    const auto found = games.factories.find(name);
    if (found != games.factories.end()) factory = found->second;
  }
  if (factory != nullptr) return factory(params);
  std::string list;
  for (const auto& known : game_names()) list += (list.empty() ? "" : ", ") + known;
  throw InvalidArgument("unknown game " + quoted(name) + "; available: " + list);
}

}  // namespace rivals

#include "rivals/core/registry.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "rivals/core/error.h"

namespace rivals {

// Each game's folder defines its factory (register.cpp), so the heavy template instantiation of
// one game compiles in a translation unit of its own.
std::shared_ptr<AnyGame> make_battlecards(const Json& params);
std::shared_ptr<AnyGame> make_rheinlaender(const Json& params);
std::shared_ptr<AnyGame> make_rosenkoenig(const Json& params);
std::shared_ptr<AnyGame> make_sekigahara(const Json& params);
std::shared_ptr<AnyGame> make_verraeter(const Json& params);

namespace {

using Factory = std::shared_ptr<AnyGame> (*)(const Json&);

const std::vector<std::pair<std::string, Factory>>& factories() {
  static const std::vector<std::pair<std::string, Factory>> table = {
      {"battlecards", &make_battlecards}, {"rheinlaender", &make_rheinlaender},
      {"rosenkoenig", &make_rosenkoenig}, {"sekigahara", &make_sekigahara},
      {"verraeter", &make_verraeter},
  };
  return table;
}

}  // namespace

std::vector<std::string> game_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> bot_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories()) {
    const std::shared_ptr<AnyGame> game = factory(Json::object());
    for (const auto& bot : game->info().bots)
      if (std::find(names.begin(), names.end(), bot) == names.end()) names.push_back(bot);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::shared_ptr<AnyGame> make_game(const std::string& name, const Json& params) {
  for (const auto& [known, factory] : factories())
    if (known == name) return factory(params);
  std::string list;
  for (const auto& known : game_names()) list += (list.empty() ? "" : ", ") + known;
  throw InvalidArgument("unknown game '" + name + "'; available: " + list);
}

}  // namespace rivals

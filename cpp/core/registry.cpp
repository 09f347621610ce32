#include "rivals/core/registry.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "rivals/core/error.h"

namespace rivals {

// Every game, one line each. The folder cpp/<name>/ defines make_<name> (its register.cpp), so the
// heavy template instantiation of one game compiles in a translation unit of its own; the name and
// the factory come from one word, so they cannot disagree.
#define RIVALS_FOR_EACH_GAME(GAME) \
  GAME(battlecards)                \
  GAME(rheinlaender)               \
  GAME(rosenkoenig)                \
  GAME(sekigahara)                 \
  GAME(verraeter)

#define RIVALS_DECLARE_FACTORY(name) std::shared_ptr<AnyGame> make_##name(const Json& params);
RIVALS_FOR_EACH_GAME(RIVALS_DECLARE_FACTORY)
#undef RIVALS_DECLARE_FACTORY

namespace {

using Factory = std::shared_ptr<AnyGame> (*)(const Json&);

const std::vector<std::pair<std::string, Factory>>& factories() {
#define RIVALS_FACTORY_ROW(name) {#name, &make_##name},
  static const std::vector<std::pair<std::string, Factory>> table = {
      RIVALS_FOR_EACH_GAME(RIVALS_FACTORY_ROW)};
#undef RIVALS_FACTORY_ROW
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
  throw InvalidArgument("unknown game " + quoted(name) + "; available: " + list);
}

}  // namespace rivals

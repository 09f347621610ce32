// RIVALS_REGISTER_GAME(name, Class): the one line that plugs a game into the engine, in its
// folder's register.cpp (or, for a game of a program's own, in any file of that program). It
// instantiates the type-erased adapter for the game and registers it under `name`, which must be
// the game's kName, so the two cannot disagree.
#pragma once

#include <memory>
#include <string_view>

#include "rivals/adapter/game_adapter.h"
#include "rivals/core/json.h"
#include "rivals/core/registry.h"

#define RIVALS_REGISTER_GAME(name, Class)                                             \
  static_assert(std::string_view(Class::kName) == #name,                              \
                "RIVALS_REGISTER_GAME: the name must be the game's kName");           \
  namespace rivals::registered {                                                      \
  std::shared_ptr<AnyGame> make_##name(const Json& params) {                          \
    return std::make_shared<GameAdapter<Class>>(params);                              \
  }                                                                                   \
  [[maybe_unused]] const bool name##_registered = register_game(#name, &make_##name); \
  }                                                                                   \
  static_assert(true, "a semicolon after the macro")

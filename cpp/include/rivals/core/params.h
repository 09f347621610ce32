// Game parameters: each game declares its parameters with defaults; user values are checked
// against the declaration before the game sees them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rivals/core/json.h"

namespace rivals {

struct ParamSpec {
  std::string name;
  Json default_value;
  std::string accepted;  // what a user may pass, in words: "2 or 4", "a path to a map file"
};

// Returns the full parameter object (every default filled in, in declaration order). Throws
// std::invalid_argument for an unknown name or a value of the wrong JSON kind, listing what the
// game accepts.
Json resolve_params(std::string_view game, const std::vector<ParamSpec>& specs, const Json& given);

// For a game's own range checks: "rosenkoenig: players must be 2 or 4, got 3".
[[noreturn]] void bad_param(std::string_view game, const ParamSpec& spec, const Json& value);

}  // namespace rivals

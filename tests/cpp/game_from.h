// The test programs drive a game's C++ class directly; they make it from parameters as a user
// gives them, with the defaults filled in and checked as rivals.make does.
#pragma once

#include "rivals/core/params.h"

template <class G>
G game_from(const rivals::Json& given) {
  return G(rivals::resolve_params(G::kName, G::param_specs(), given));
}

// The names of the bots the engine builds, in the order users see them.
#pragma once

#include <string>
#include <vector>

namespace rivals {

inline std::vector<std::string> bot_names() {
  return {"alphabeta", "ismcts", "mcts", "random", "solver"};
}

}  // namespace rivals

#include "rivals/core/any_game.h"

#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "rivals/core/error.h"

namespace rivals {

int AnyGame::observation_size() const {
  const auto& shape = observation_shape();
  return std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<>());
}

int AnyGame::compact_board_size() const {
  const auto& shape = compact_board_shape();
  return std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<>());
}

std::unique_ptr<AnyState> AnyGame::state_from_history(const std::vector<Action>& actions) const {
  auto state = new_initial_state();
  for (std::size_t i = 0; i < actions.size(); ++i) {
    try {
      state->apply_action(actions[i]);
    } catch (const std::invalid_argument& error) {
      throw InvalidArgument("action #" + std::to_string(i) + ": " + std::string(message_of(error)));
    }
  }
  return state;
}

}  // namespace rivals

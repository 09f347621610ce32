#include "rivals/adapter/game_adapter.h"
#include "rivals/battlecards/game.h"

namespace rivals {

std::shared_ptr<AnyGame> make_battlecards(const Json& params) {
  return std::make_shared<GameAdapter<battlecards::Battlecards>>(params);
}

}  // namespace rivals

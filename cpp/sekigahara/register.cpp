#include "rivals/adapter/game_adapter.h"
#include "rivals/sekigahara/game.h"

namespace rivals {

std::shared_ptr<AnyGame> make_sekigahara(const Json& params) {
  return std::make_shared<GameAdapter<sekigahara::Sekigahara>>(params);
}

}  // namespace rivals

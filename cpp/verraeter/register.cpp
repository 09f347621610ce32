#include "rivals/adapter/game_adapter.h"
#include "rivals/verraeter/game.h"

namespace rivals {

std::shared_ptr<AnyGame> make_verraeter(const Json& params) {
  return std::make_shared<GameAdapter<verraeter::Verraeter>>(params);
}

}  // namespace rivals

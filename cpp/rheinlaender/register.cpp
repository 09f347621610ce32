#include "rivals/adapter/game_adapter.h"
#include "rivals/rheinlaender/game.h"

namespace rivals {

std::shared_ptr<AnyGame> make_rheinlaender(const Json& params) {
  return std::make_shared<GameAdapter<rheinlaender::Rheinlaender>>(params);
}

}  // namespace rivals

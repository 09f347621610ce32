#include "rivals/adapter/game_adapter.h"
#include "rivals/rosenkoenig/game.h"

namespace rivals {

std::shared_ptr<AnyGame> make_rosenkoenig(const Json& params) {
  return std::make_shared<GameAdapter<rosenkoenig::Rosenkoenig>>(params);
}

}  // namespace rivals

// What an embedding program can get wrong and the engine refuses with std::invalid_argument
// rather than undefined behaviour: a parameter object built with a name twice, a vector
// environment given null arrays or no actions. Prints "ok".
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "rivals/core/registry.h"

namespace {

int failures = 0;

template <class Call>
void refused(Call&& call, const char* expected, const char* what) {
  try {
    call();
  } catch (const std::invalid_argument& error) {
    if (std::strstr(error.what(), expected) != nullptr) return;
    std::printf("failed: %s: message '%s' lacks '%s'\n", what, error.what(), expected);
    ++failures;
    return;
  }
  std::printf("failed: %s: not refused\n", what);
  ++failures;
}

}  // namespace

int main() {
  using rivals::Json;
  refused(
      [] { rivals::make_game("rosenkoenig", Json(Json::Object{{"players", 4}, {"players", 2}})); },
      "parameter 'players' is given twice", "a parameter twice");
  const auto game = rivals::make_game("sekigahara");
  auto env = game->make_vector_env(2, 1, 1);
  refused([&] { env->reset(rivals::VectorBuffers{}, 5); }, "buffer obs is null", "null arrays");
  refused([&] { env->step(nullptr, rivals::VectorBuffers{}); }, "no actions", "no actions");
  if (failures == 0) std::printf("ok\n");
  return failures == 0 ? 0 : 1;
}

// The one line that makes this folder a game of the engine (docs/architecture.md, "Adding a game").
#include "rivals/adapter/registration.h"
#include "rivals/rosenkoenig/game.h"

RIVALS_REGISTER_GAME(rosenkoenig, rivals::rosenkoenig::Rosenkoenig);

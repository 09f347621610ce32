// The one line that makes this folder a game of the engine (docs/architecture.md, "Adding a game").
#include "rivals/adapter/registration.h"
#include "rivals/tictactoe/game.h"

RIVALS_REGISTER_GAME(tictactoe, rivals::tictactoe::TicTacToe);

// Plays the sixth game through the engine by name, as any registered game is played: random games
// written out move by move for tests/test_adding_a_game.py to compare with the reference, then the
// engine's bots on it and the registry's refusals.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rivals/core/registry.h"
#include "rivals/core/rng.h"

namespace {

std::shared_ptr<rivals::AnyGame> not_a_game(const rivals::Json&) { return nullptr; }

bool refused(const std::string& name, rivals::GameFactory factory) {
  try {
    rivals::register_game(name, factory);
  } catch (const std::invalid_argument& error) {
    std::printf("refused: %s\n", error.what());
    return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 10;
  try {
    std::string names;
    for (const auto& name : rivals::game_names()) names += " " + name;
    std::printf("games:%s\n", names.c_str());
    const auto game = rivals::make_game("tictactoe");
    rivals::Rng rng(11);
    for (int g = 0; g < games; ++g) {
      auto state = game->new_initial_state();
      rivals::Json::Array steps;
      while (!state->is_terminal()) {
        const auto legal = state->legal_actions();
        const rivals::Action action = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        rivals::Json::Array step;
        for (const rivals::Action a : legal) step.emplace_back(static_cast<int>(a));
        steps.emplace_back(rivals::Json::object({{"legal", rivals::Json(std::move(step))},
                                                 {"action", static_cast<int>(action)},
                                                 {"text", state->action_to_string(action)}}));
        state->apply_action(action);
      }
      rivals::Json::Array returns;
      for (const double r : state->returns()) returns.emplace_back(r);
      std::printf("%s\n", rivals::Json::object({{"steps", rivals::Json(std::move(steps))},
                                                {"returns", rivals::Json(std::move(returns))},
                                                {"snapshot", state->to_json()}})
                              .dump()
                              .c_str());
    }
    const auto match = game->play_match(
        {{"mcts", rivals::Json::object({{"iterations", 400}})}, {"random", rivals::Json::object()}},
        /*seed=*/3, /*first_game=*/0, /*num_games=*/40,
        /*threads=*/2, /*keep_histories=*/false,
        /*chance_group=*/1);
    // Game i seats the bots in turn: mcts's return is that of the seat it sat in.
    double mcts = 0;
    for (int i = 0; i < match.num_games * match.num_players; ++i)
      if (match.seating[i] == 0) mcts += match.returns[i];
    std::printf("mcts against random: %d games, mean return of mcts %+.3f\n", match.num_games,
                mcts / match.num_games);
    const bool bad_name = refused("Tic Tac", &not_a_game);
    const bool taken = refused("rosenkoenig", &not_a_game);
    std::printf("%s\n", bad_name && taken ? "ok" : "accepted what it should refuse");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
  return 0;
}

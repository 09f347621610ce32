// Embedding the engine in a C++ program: pick a game by name, play it with checked actions,
// then run a batch of random games and a bot match in C++.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "rivals/core/registry.h"
#include "rivals/core/rng.h"

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "rosenkoenig";
  try {
    const auto game = rivals::make_game(name);
    auto state = game->new_initial_state();
    rivals::Rng rng(7);
    while (!state->is_terminal()) {
      const auto legal = state->legal_actions();
      state->apply_action(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    std::printf("%s: one game of %zu actions, returns", name.c_str(), state->history().size());
    for (const double r : state->returns()) std::printf(" %+.2f", r);
    std::printf("\n");

    const auto batch = game->random_playouts(/*seed=*/1, /*num_games=*/1000, /*threads=*/2);
    double first_seat = 0;
    for (int i = 0; i < batch.num_games; ++i) first_seat += batch.returns[i * batch.num_players];
    std::printf("1000 random games: mean return of seat 0 %+.3f\n", first_seat / batch.num_games);

    std::vector<rivals::BotSpec> bots;
    for (int seat = 0; seat < game->num_players(); ++seat) {
      if (seat % 2 == 0)
        bots.push_back({"mcts", rivals::Json::object({{"iterations", 50}})});
      else
        bots.push_back({"random", rivals::Json::object()});
    }
    const auto match = game->play_match(bots, /*seed=*/3, /*first_game=*/0, /*num_games=*/4,
                                        /*threads=*/2, /*keep_histories=*/false,
                                        /*chance_group=*/1);
    std::printf("mcts against random: %d games played\n", match.num_games);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
  return 0;
}

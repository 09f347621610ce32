// What a game is, as a program choosing among games needs to know it (OpenSpiel's GameType): its
// names, how many may play, what the players see, what the results add up to, and what the engine
// offers for it.
//
// A game declares the facts only its rules settle (`static GameInfo info()`, next to
// `param_specs()`); the engine fills in what it can read from the game's type and declarations
// (the fields marked "derived"), so those never disagree with the code.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "rivals/core/json.h"
#include "rivals/core/types.h"

namespace rivals {

enum class Information {
  kPerfect,    // every seat sees the whole state (chance still to come aside)
  kImperfect,  // some seats cannot see parts of it (hands, face-down cards)
};

enum class Utility {
  kZeroSum,      // the returns sum to 0 at every end
  kConstantSum,  // they sum to utility_sum at every end
  kGeneralSum,   // no promise
};

// A named bot setting: rivals.bots.make(name, game) plays `bot` with `params`, parameters given
// with the name overriding them. "best" is the game's strongest setting at `time_s` 0.1.
struct BotPreset {
  std::string name;
  std::string bot;
  Json params = Json::object();
  std::string description;  // one line: what it is and how it was chosen

  bool operator==(const BotPreset&) const = default;
};

// The seats that share one result, for one player count.
struct TeamSplit {
  int players = 0;
  std::vector<std::vector<Player>> teams;

  bool operator==(const TeamSplit&) const = default;
};

struct GameInfo {
  // Declared by the game.
  std::string long_name;    // as a title: "Rosenkönig (The Rose King)"
  std::string description;  // one line
  Information information = Information::kImperfect;
  Utility utility = Utility::kGeneralSum;
  double utility_sum = 0;  // kConstantSum only
  // Bounds of every entry of the observation tensor, as the rules page promises them.
  double observation_low = -std::numeric_limits<double>::infinity();
  double observation_high = std::numeric_limits<double>::infinity();
  std::vector<TeamSplit> teams;  // only the player counts that play in teams
  // Its tuned bot settings; "best" defaults to plain tree search when a game declares none.
  std::vector<BotPreset> presets;

  // Derived: the name (G::kName); the player counts from the `players` parameter's choices (the
  // one count of a game without it) and its default; `evaluation` from an evaluate() for search
  // (bots/evaluation.h) and `evaluations` the names it offers, the default first;
  // `resampling` from resample_history() in a game with imperfect information; the observation
  // encodings every game has (the compact one included); the bots that play it, and which of them
  // are exact solvers, from the engine's bots and the game's extra bots; `fair_bots`, the bots
  // that decide from what the mover's seat may see (declared by each bot), may play a seat against
  // a person or a learner.
  std::string name;
  std::vector<int> player_counts;
  int default_players = 0;
  bool evaluation = false;
  std::vector<std::string> evaluations;
  bool resampling = false;
  std::vector<std::string> observations;
  std::vector<std::string> bots;
  std::vector<std::string> solvers;
  std::vector<std::string> fair_bots;

  // By value: two games of one name have equal infos (GameInfo is a value, not an identity).
  bool operator==(const GameInfo&) const = default;
};

inline const char* to_string(Information information) {
  return information == Information::kPerfect ? "perfect" : "imperfect";
}

inline const char* to_string(Utility utility) {
  switch (utility) {
    case Utility::kZeroSum:
      return "zero_sum";
    case Utility::kConstantSum:
      return "constant_sum";
    case Utility::kGeneralSum:
      break;
  }
  return "general_sum";
}

}  // namespace rivals

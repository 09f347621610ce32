// The engine's side of a compact record (docs/formats.md, "rivals-record"): the game lines of
// played games, and many stored games checked at once, so that writing and reading a record
// costs the caller one call per batch rather than work per game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/any_game.h"
#include "rivals/core/types.h"

namespace rivals {

// Bytes per action in a record of `game`: one while every decision and chance outcome id fits
// in a byte, else two (big-endian).
int record_action_bytes(const AnyGame& game);

// The record's game lines of games first_game, first_game + 1, ... with these histories, each
// `{"index": N, "actions": "HEX"}` and a newline, HEX being its actions in `action_bytes`
// bytes each (1 or 2), in two steps so that they can be written straight into a caller's
// buffer: record_line_starts gives where each line starts (the last entry is their size), and
// write_record_lines writes them at `out` on `threads` threads (checked_threads). An action
// that does not fit the bytes is std::invalid_argument (the lines are then unfinished).
std::vector<std::size_t> record_line_starts(const std::vector<std::vector<Action>>& histories,
                                            std::int64_t first_game, int action_bytes);
void write_record_lines(const std::vector<std::vector<Action>>& histories, std::int64_t first_game,
                        int action_bytes, const std::vector<std::size_t>& starts, int threads,
                        char* out);

// Stored games checked at once: `lengths[k]` actions of `actions` for game k, in order.
struct HistoryCheck {
  std::vector<double> returns;  // games x players: each finished game's returns
  // The first game that is not a finished game of legal actions (-1: none), and why, in
  // state_from_history's words ("action #j: ...") or "the game is not over after its N
  // actions". The returns from that game on are not all filled in.
  std::int64_t bad_game = -1;
  std::string reason;
};

// Replays every game from the initial state with every action checked, as state_from_history
// does (AnyGame::replay_games), on `threads` threads (checked_threads); the lengths must add up
// to actions.size(), and be at most kMaxBatchGames (std::invalid_argument otherwise). Throws
// Interrupted when asked to stop.
HistoryCheck check_histories(const AnyGame& game, const std::vector<Action>& actions,
                             const std::vector<std::int64_t>& lengths, int threads);

}  // namespace rivals

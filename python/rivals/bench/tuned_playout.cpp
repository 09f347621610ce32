// Two-player Rosenkönig random playouts, hand-tuned in one file: the yardstick that
// `rivals bench rosenkoenig` measures the engine's random_playouts against (row 6). It shares no
// code with the engine and follows the same rules (docs/rules/rosenkoenig.md): the benchmark
// compiles it with the flags the engine is built with and checks that its game lengths and results
// match the engine's distribution before it trusts the speed.
//
// The fast form, per the performance notes of this machine kind: no allocation and no container
// in the loop; the board as one byte per square with a guard column and an off-board sentinel, so
// legality is two table look-ups; the hand as a card mask; the draw pile as an unordered array
// (a draw is one random number and a swap-remove); wyrand with Lemire's range reduction; scoring
// strips isolated stones before flood-filling the rest on 128-bit integers.
//
// Usage: tuned_playout GAMES SEED. Prints one JSON line: the games, the thread CPU seconds of the
// loop, the sums of the game lengths (every action, deals and draws included) and of their
// squares, and the red wins, white wins and draws.
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

using u128 = unsigned __int128;

constexpr int kSize = 9;
constexpr int kStride = 10;
constexpr int kOffBoard = 127;
constexpr int kCentre = 4 * kStride + 4;
constexpr int kCards = 24;
constexpr int kHandLimit = 5;
constexpr int kHeroes = 4;
constexpr int kStones = 52;

enum Cell : std::uint8_t { kEmpty = 0, kRed = 1, kWhite = 2, kOutside = 3 };

constexpr u128 kBoardMask = [] {
  u128 mask = 0;
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) mask |= static_cast<u128>(1) << (r * kStride + c);
  return mask;
}();

// Card c moves the crown direction c / 3 (N, NE, E, SE, S, SW, W, NW) by c % 3 + 1 squares.
constexpr auto kLanding = [] {
  constexpr int dr[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
  constexpr int dc[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  std::array<std::array<std::uint8_t, kCards>, 128> table{};
  for (int sq = 0; sq < 128; ++sq)
    for (int card = 0; card < kCards; ++card) {
      const int r = sq / kStride + dr[card / 3] * (card % 3 + 1);
      const int c = sq % kStride + dc[card / 3] * (card % 3 + 1);
      const bool inside = sq < kSize * kStride && sq % kStride < kSize && r >= 0 && r < kSize &&
                          c >= 0 && c < kSize;
      table[sq][card] = static_cast<std::uint8_t>(inside ? r * kStride + c : kOffBoard);
    }
  return table;
}();

constexpr auto kEmptyBoard = [] {
  std::array<std::uint8_t, 128> cells{};
  for (int sq = 0; sq < 128; ++sq)
    cells[sq] = sq < kSize * kStride && sq % kStride < kSize ? kEmpty : kOutside;
  return cells;
}();

class Wyrand {
 public:
  explicit Wyrand(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0xa0761d6478bd642fULL;
    const u128 product = static_cast<u128>(state_) * (state_ ^ 0xe7037ed1a0b428dbULL);
    return static_cast<std::uint64_t>(product >> 64) ^ static_cast<std::uint64_t>(product);
  }
  // Uniform in [0, n), exactly (Lemire's multiply-shift with rejection).
  std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
    if (static_cast<std::uint32_t>(m) < n) [[unlikely]] {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (static_cast<std::uint32_t>(m) < threshold)
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

 private:
  std::uint64_t state_;
};

struct Score {
  int points = 0;
  int largest = 0;
  int stones = 0;
};

// Counted inline, as the engine does: built for every x86-64 (no -mpopcnt), std::popcount is a
// call into libgcc through the PLT, which cost this program 3% of its speed.
int bits64(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

int bits(u128 x) {
  return bits64(static_cast<std::uint64_t>(x)) + bits64(static_cast<std::uint64_t>(x >> 64));
}

u128 neighbours(u128 s) {
  return ((s << 1) | (s >> 1) | (s << kStride) | (s >> kStride)) & kBoardMask;
}

Score score(u128 stones) {
  Score out;
  out.stones = bits(stones);
  const u128 single = stones & ~neighbours(stones);
  out.points = bits(single);
  out.largest = single != 0;
  for (u128 rest = stones & ~single; rest;) {
    u128 group = rest & (~rest + 1);
    for (u128 grown = group | (neighbours(group) & rest); grown != group;
         grown = group | (neighbours(group) & rest))
      group = grown;
    rest &= ~group;
    const int size = bits(group);
    out.points += size * size;
    if (size > out.largest) out.largest = size;
  }
  return out;
}

struct Game {
  std::array<std::uint8_t, 128> cells = kEmptyBoard;
  u128 stones[2] = {0, 0};
  std::uint32_t hand[2] = {0, 0};
  int hand_size[2] = {0, 0};
  int heroes[2] = {kHeroes, kHeroes};
  std::uint8_t pile[kCards];
  std::uint8_t discard[kCards];
  int pile_size = kCards;
  int discard_size = 0;
  int crown = kCentre;
  int stones_left = kStones;

  Game() {
    for (int c = 0; c < kCards; ++c) pile[c] = static_cast<std::uint8_t>(c);
  }

  void draw(int seat, Wyrand& rng) {
    const std::uint32_t i = rng.below(static_cast<std::uint32_t>(pile_size));
    const int card = pile[i];
    pile[i] = pile[--pile_size];
    hand[seat] |= 1u << card;
    ++hand_size[seat];
    // The pile is refilled from the discards the moment its last card is taken.
    if (pile_size == 0) {
      for (int k = 0; k < discard_size; ++k) pile[k] = discard[k];
      pile_size = discard_size;
      discard_size = 0;
    }
  }

  // The seat's legal actions: card plays in `plays`, hero plays in `hero_plays`; returns whether
  // it may draw.
  bool options(int seat, int* plays, int* play_count, int* hero_plays, int* hero_count) const {
    const std::uint8_t* landing = kLanding[crown].data();
    const std::uint8_t enemy = seat == 0 ? kWhite : kRed;
    int p = 0;
    int h = 0;
    for (std::uint32_t cards = hand[seat]; cards; cards &= cards - 1) {
      const int card = std::countr_zero(cards);
      const std::uint8_t target = cells[landing[card]];
      plays[p] = card;
      p += target == kEmpty;
      hero_plays[h] = card;
      h += target == enemy;
    }
    *play_count = p;
    *hero_count = heroes[seat] > 0 ? h : 0;
    return pile_size > 0 && hand_size[seat] < kHandLimit;
  }

  bool can_act(int seat) const {
    int plays[kHandLimit], hero_plays[kHandLimit], p, h;
    const bool draw = options(seat, plays, &p, hero_plays, &h);
    return draw || p + h > 0;
  }

  void play(int seat, int card, bool hero) {
    const int target = kLanding[crown][card];
    hand[seat] &= ~(1u << card);
    --hand_size[seat];
    discard[discard_size++] = static_cast<std::uint8_t>(card);
    crown = target;
    cells[target] = seat == 0 ? kRed : kWhite;
    stones[seat] |= static_cast<u128>(1) << target;
    if (hero) {
      stones[seat ^ 1] &= ~(static_cast<u128>(1) << target);
      --heroes[seat];
    } else {
      --stones_left;
    }
  }
};

struct Totals {
  long long plies = 0;
  long long plies_squared = 0;
  long long wins[3] = {0, 0, 0};  // red, white, draw
};

// One random game from the deal to the end; returns its length and adds its result.
int play_game(Wyrand& rng, Totals& totals) {
  Game game;
  for (int seat = 0; seat < 2; ++seat)
    for (int k = 0; k < kHandLimit; ++k) game.draw(seat, rng);
  int plies = 2 * kHandLimit;
  int seat = 0;
  for (;;) {
    int plays[kHandLimit], hero_plays[kHandLimit], p, h;
    const bool draw = game.options(seat, plays, &p, hero_plays, &h);
    const int count = p + h + draw;
    if (count == 0) {
      // A seat that cannot act passes while the other still can; otherwise the game is over.
      if (!game.can_act(seat ^ 1)) break;
      ++plies;
      seat ^= 1;
      continue;
    }
    ++plies;
    const int choice = static_cast<int>(rng.below(static_cast<std::uint32_t>(count)));
    if (choice < p) {
      game.play(seat, plays[choice], false);
      if (game.stones_left == 0) break;
    } else if (choice < p + h) {
      game.play(seat, hero_plays[choice - p], true);
    } else {
      game.draw(seat, rng);
      ++plies;
    }
    seat ^= 1;
  }
  const Score red = score(game.stones[0]);
  const Score white = score(game.stones[1]);
  int winner = 2;
  if (red.points != white.points)
    winner = red.points > white.points ? 0 : 1;
  else if (red.largest != white.largest)
    winner = red.largest > white.largest ? 0 : 1;
  else if (red.stones != white.stones)
    winner = red.stones > white.stones ? 0 : 1;
  ++totals.wins[winner];
  totals.plies += plies;
  totals.plies_squared += static_cast<long long>(plies) * plies;
  return plies;
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s GAMES SEED\n", argv[0]);
    return 2;
  }
  const long long games = std::strtoll(argv[1], nullptr, 10);
  const unsigned long long seed = std::strtoull(argv[2], nullptr, 10);
  if (games < 1) {
    std::fprintf(stderr, "GAMES must be at least 1\n");
    return 2;
  }
  Wyrand rng(seed * 0x9e3779b97f4a7c15ULL + 1);
  Totals totals;
  const double start = thread_cpu_seconds();
  for (long long i = 0; i < games; ++i) play_game(rng, totals);
  const double seconds = thread_cpu_seconds() - start;
  std::printf(
      "{\"games\": %lld, \"cpu_s\": %.9f, \"plies\": %lld, \"plies_squared\": %lld, "
      "\"red\": %lld, \"white\": %lld, \"draws\": %lld}\n",
      games, seconds, totals.plies, totals.plies_squared, totals.wins[0], totals.wins[1],
      totals.wins[2]);
  return 0;
}

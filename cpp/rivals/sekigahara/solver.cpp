// Sekigahara's exact solver (solver.h). One file on purpose: the table, its concurrent solving and
// the search that fills it are one algorithm, documented in docs/rules/sekigahara.md.
#include "rivals/sekigahara/solver.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <utility>

#include "rivals/core/interrupt.h"

namespace rivals::sekigahara {
namespace {

// One seat's influence on the three central cards (ascending ids): (a, b, c), a + b + c <= 5.
constexpr int kCfgs = 56;
constexpr int kPairs = kCfgs * kCfgs;
constexpr int kNodes = 2 * kPairs;  // seat to move x seat 0's cfg x seat 1's cfg
constexpr int kActions = 3;         // place/move actions of every turn but the very first

// With d cards in the deck, the result is a function of the deck's order, one of d! equally
// likely; every value of a context is therefore a multiple of 1/d!, and d <= 6 once the first
// three cards are revealed. Stored values are exact in units of 1/6!.
constexpr double kScale = 720.0;
constexpr std::int64_t kMapOverhead = 64;  // bytes per stored context besides its values

struct CfgTables {
  std::array<std::array<int, kCentral>, kCfgs> tokens{};
  std::array<int, kCfgs> total{};
  std::array<int, 6 * 6 * 6> index{};
  std::array<std::array<int, 8>, kCfgs> zeroed{};  // cfg with the positions of a mask emptied
};

const CfgTables& cfgs() {
  static const CfgTables tables = [] {
    CfgTables t;
    t.index.fill(-1);
    int n = 0;
    for (int a = 0; a <= kTokens; ++a)
      for (int b = 0; a + b <= kTokens; ++b)
        for (int c = 0; a + b + c <= kTokens; ++c) {
          t.tokens[n] = {a, b, c};
          t.total[n] = a + b + c;
          t.index[(a * 6 + b) * 6 + c] = n++;
        }
    for (int k = 0; k < kCfgs; ++k)
      for (int mask = 0; mask < 8; ++mask) {
        auto tok = t.tokens[k];
        for (int p = 0; p < kCentral; ++p)
          if (mask >> p & 1) tok[p] = 0;
        t.zeroed[k][mask] = t.index[(tok[0] * 6 + tok[1]) * 6 + tok[2]];
      }
    return t;
  }();
  return tables;
}

int cfg_index(int a, int b, int c) { return cfgs().index[(a * 6 + b) * 6 + c]; }
constexpr int node_of(int mover, int k0, int k1) { return mover * kPairs + k0 * kCfgs + k1; }

// Blank marks that can still change something: cards 5, 7 and 8 have no text left to lose once
// they sit in a camp.
constexpr std::uint16_t kRelevantBlank = card_bit(kSanada) | card_bit(kAnkokuji) |
                                         card_bit(kOtani) | card_bit(kIi) | card_bit(kKikkawa) |
                                         card_bit(kUkita);

struct Camps {
  std::array<Camp, 2> camps{};
  std::uint16_t blank = 0;

  std::uint16_t mask(int seat) const {
    std::uint16_t m = 0;
    for (int i = 0; i < camps[seat].size; ++i) m |= card_bit(camps[seat].cards[i]);
    return m;
  }
  bool has_unblanked(int seat, int card) const {
    return (mask(seat) & ~blank & card_bit(card)) != 0;
  }
};

// A context: everything but the influence. The deck is what is neither central nor in a camp.
struct Key {
  std::uint64_t camps = 0;  // 4 bits per card, seat 0 in the low half
  std::uint32_t masks = 0;  // blank | central << 16
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& key) const {
    return static_cast<std::size_t>(mix64(key.camps ^ mix64(key.masks)));
  }
};

// Only unblanked 4, 6 and 9 care where they sit, and only through their index; with distinct
// strengths card 1's target does not depend on the order either, so the other cards can be
// sorted within their camp without changing any future score.
Camps canonical(Camps c, bool sort_free_cards) {
  c.blank &= kRelevantBlank;
  if (!sort_free_cards) return c;
  for (Camp& camp : c.camps) {
    std::uint16_t free_cards = 0;
    std::array<bool, kNumCards> fixed{};
    for (int i = 0; i < camp.size; ++i) {
      const int card = camp.cards[i];
      const bool positional =
          (card == kIi || card == kKikkawa || card == kUkita) && !(c.blank & card_bit(card));
      fixed[i] = positional;
      if (!positional) free_cards |= card_bit(card);
    }
    for (int i = 0; i < camp.size; ++i) {
      if (fixed[i]) continue;
      camp.cards[i] = static_cast<std::int8_t>(std::countr_zero(free_cards));
      free_cards &= free_cards - 1;
    }
  }
  return c;
}

Key make_key(const Camps& c, std::uint16_t central) {
  Key key;
  for (int seat = 0; seat < 2; ++seat)
    for (int i = 0; i < c.camps[seat].size; ++i)
      key.camps |= static_cast<std::uint64_t>(c.camps[seat].cards[i]) << (32 * seat + 4 * i);
  key.masks = c.blank | static_cast<std::uint32_t>(central) << 16;
  return key;
}

Camps camps_of(const Key& key) {
  Camps c;
  for (int seat = 0; seat < 2; ++seat)
    for (int i = 0; i < 8; ++i) {
      const int card = static_cast<int>(key.camps >> (32 * seat + 4 * i) & 15);
      if (card == 0) break;
      c.camps[seat].cards[c.camps[seat].size++] = static_cast<std::int8_t>(card);
    }
  c.blank = static_cast<std::uint16_t>(key.masks & 0xffff);
  return c;
}

double result_of(const Camps& c, const CardNumbers& numbers) {
  const auto total = camp_totals(c.camps, c.blank, numbers);
  return total[0] > total[1] ? 1.0 : (total[0] < total[1] ? -1.0 : 0.0);
}

// What a context's graph depends on besides its camps: requirements of the central cards in
// ascending order, where card 8 lies, and which seats hold an unblanked card 2.
struct ShapeKey {
  std::array<int, kCentral> requirement{};
  int fukushima = kCentral;  // position of card 8, kCentral if it is not central
  std::array<bool, 2> ankokuji{};

  int code() const {
    return ((((requirement[0] * 6 + requirement[1]) * 6 + requirement[2]) * 4 + fukushima) * 2 +
            ankokuji[0]) *
               2 +
           ankokuji[1];
  }
};

enum NodeKind : std::uint8_t { kInternal, kExit, kDead };

// The turn graph of one shape: for every turn start, its kind, the cards the mover locks, and
// the mover's cfgs reachable by the end of the action phase; predecessors for the retrograde pass.
struct Shape {
  std::vector<std::uint8_t> kind;
  std::vector<std::uint8_t> locks;
  std::vector<std::uint32_t> succ_begin;
  std::vector<std::uint8_t> succ;
  std::vector<std::uint32_t> pred_begin;
  std::vector<std::uint16_t> pred;

  std::int64_t bytes() const {
    return static_cast<std::int64_t>(kind.size() + locks.size() + succ.size() +
                                     4 * (succ_begin.size() + pred_begin.size()) + 2 * pred.size());
  }
};

// Cfgs one seat can reach from `start` with up to `actions` place/move actions, none touching a
// `frozen` (locked) position, tokens on position `fukushima` never moving, under rule 2.4
// (`opponent`: the other seat's cfg, which the symmetric rule compares with).
std::vector<std::uint8_t> reachable(int start, int frozen, int fukushima, int opponent,
                                    RepetitionRule rule, int actions) {
  const CfgTables& t = cfgs();
  auto forbidden = [&](int k) {
    if (rule == RepetitionRule::kTurnStart) return k == start;
    if (rule == RepetitionRule::kSymmetric) return k == opponent;
    return false;
  };
  std::array<int, kCfgs> depth;
  depth.fill(-1);
  std::vector<std::uint8_t> frontier{static_cast<std::uint8_t>(start)}, out = frontier;
  depth[start] = 0;
  for (int d = 1; d <= actions; ++d) {
    std::vector<std::uint8_t> next;
    auto visit = [&](const std::array<int, kCentral>& tok) {
      const int k = cfg_index(tok[0], tok[1], tok[2]);
      if (depth[k] >= 0 || forbidden(k)) return;
      depth[k] = d;
      next.push_back(static_cast<std::uint8_t>(k));
    };
    for (const int k : frontier) {
      const auto& tok = t.tokens[k];
      for (int to = 0; to < kCentral; ++to) {
        if (frozen >> to & 1) continue;
        if (t.total[k] < kTokens) {
          auto placed = tok;
          ++placed[to];
          visit(placed);
        }
        for (int from = 0; from < kCentral; ++from) {
          if (from == to || (frozen >> from & 1) || from == fukushima || tok[from] == 0) continue;
          auto moved = tok;
          --moved[from];
          ++moved[to];
          visit(moved);
        }
      }
    }
    out.insert(out.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  return out;
}

Shape build_shape(const ShapeKey& key, RepetitionRule rule) {
  const CfgTables& t = cfgs();
  Shape shape;
  shape.kind.resize(kNodes);
  shape.locks.resize(kNodes);
  shape.succ_begin.resize(kNodes + 1);
  std::array<int, kCentral> requirement = key.requirement;
  auto meets = [&](int seat, int own_cfg, int other_cfg, int p) {
    const int own = t.tokens[own_cfg][p];
    const int other = t.tokens[other_cfg][p];
    return (key.ankokuji[seat] ? own >= other : own > other) && own > requirement[p];
  };
  auto stuck = [&](int seat, int own, int other) {
    if (t.total[own] < kTokens) return false;
    for (int p = 0; p < kCentral; ++p)
      if ((p != key.fukushima && t.tokens[own][p] > 0) || meets(seat, own, other, p)) return false;
    return true;
  };
  // Without the symmetric rule the reachable set does not depend on the opponent.
  std::vector<std::vector<std::uint8_t>> cache(kCfgs * 8 * (kCfgs + 1));
  std::vector<int> in_degree(kNodes, 0);
  for (int u = 0; u < kNodes; ++u) {
    const int mover = u / kPairs;
    const int k0 = u % kPairs / kCfgs;
    const int k1 = u % kCfgs;
    const int own = mover == 0 ? k0 : k1;
    const int other = mover == 0 ? k1 : k0;
    int locks = 0;
    for (int p = 0; p < kCentral; ++p) locks |= meets(mover, own, other, p) << p;
    shape.succ_begin[u] = static_cast<std::uint32_t>(shape.succ.size());
    if (stuck(0, k0, k1) && stuck(1, k1, k0)) {
      shape.kind[u] = kDead;
      continue;
    }
    shape.kind[u] = locks ? kExit : kInternal;
    shape.locks[u] = static_cast<std::uint8_t>(locks);
    const int opponent = rule == RepetitionRule::kSymmetric ? other : kCfgs;
    auto& reach = cache[(own * 8 + locks) * (kCfgs + 1) + opponent];
    if (reach.empty()) reach = reachable(own, locks, key.fukushima, other, rule, kActions);
    shape.succ.insert(shape.succ.end(), reach.begin(), reach.end());
    if (!locks)
      for (const int k : reach) ++in_degree[node_of(1 - mover, mover ? k0 : k, mover ? k : k1)];
  }
  shape.succ_begin[kNodes] = static_cast<std::uint32_t>(shape.succ.size());
  shape.pred_begin.resize(kNodes + 1);
  for (int v = 0; v < kNodes; ++v) shape.pred_begin[v + 1] = shape.pred_begin[v] + in_degree[v];
  shape.pred.resize(shape.pred_begin[kNodes]);
  std::vector<std::uint32_t> fill(shape.pred_begin.begin(), shape.pred_begin.end() - 1);
  for (int u = 0; u < kNodes; ++u) {
    if (shape.kind[u] != kInternal) continue;
    const int mover = u / kPairs;
    const int k0 = u % kPairs / kCfgs;
    const int k1 = u % kCfgs;
    for (std::uint32_t i = shape.succ_begin[u]; i < shape.succ_begin[u + 1]; ++i) {
      const int k = shape.succ[i];
      shape.pred[fill[node_of(1 - mover, mover ? k0 : k, mover ? k : k1)]++] =
          static_cast<std::uint16_t>(u);
    }
  }
  return shape;
}

// The current context while it is being solved.
struct Context {
  Camps camps;
  std::uint16_t central = 0;
  std::uint16_t deck = 0;
  std::array<int, kCentral> cards{};  // central ids, ascending
};

// Restricted cfg pairs (both seats empty on the positions of a lock mask), per mask: the inputs
// of the acquisition values, since the acquired cards' tokens go back to the supplies.
const std::array<std::vector<std::uint16_t>, 8>& entries_by_mask() {
  static const auto table = [] {
    std::array<std::vector<std::uint16_t>, 8> out;
    const CfgTables& t = cfgs();
    for (int mask = 0; mask < 8; ++mask)
      for (int k0 = 0; k0 < kCfgs; ++k0)
        for (int k1 = 0; k1 < kCfgs; ++k1)
          if (t.zeroed[k0][mask] == k0 && t.zeroed[k1][mask] == k1)
            out[mask].push_back(static_cast<std::uint16_t>(k0 * kCfgs + k1));
    return out;
  }();
  return table;
}

// A context is entered from another only right after reveals, so at least one central card is
// empty for both seats; only those cfg pairs are stored (other turn starts are solved on demand).
struct Compact {
  std::array<int, kPairs> index{};
  int size = 0;
};

const Compact& compact() {
  static const Compact table = [] {
    Compact c;
    const CfgTables& t = cfgs();
    for (int pair = 0; pair < kPairs; ++pair) {
      const auto& a = t.tokens[pair / kCfgs];
      const auto& b = t.tokens[pair % kCfgs];
      bool entry = false;
      for (int p = 0; p < kCentral; ++p) entry = entry || (a[p] == 0 && b[p] == 0);
      c.index[pair] = entry ? c.size++ : -1;
    }
    return c;
  }();
  return table;
}

int stored_index(int node) {
  const int entry = compact().index[node % kPairs];
  return entry < 0 ? -1 : node / kPairs * compact().size + entry;
}

// Seat 0 maximises, seat 1 minimises.
void keep_best(int chooser, bool first, const std::vector<double>& option,
               std::vector<double>& best) {
  if (first) {
    best = option;
    return;
  }
  for (std::size_t i = 0; i < best.size(); ++i)
    best[i] = chooser == 0 ? std::max(best[i], option[i]) : std::min(best[i], option[i]);
}

}  // namespace

struct Solver::Impl {
  using Clock = std::chrono::steady_clock;

  Setup setup;
  SolverLimits limits;
  bool sort_free_cards = true;
  SolverStats stats;
  std::atomic<std::int64_t> contexts_solved{0};  // stats.contexts, for readers on other threads
  std::unordered_map<Key, std::vector<std::int16_t>, KeyHash> tables;
  std::unordered_map<int, Shape> shapes;
  Key full_key;
  std::vector<double> full_values;
  std::optional<Deadline> deadline;  // none without a time limit
  Clock::time_point started;

  Impl(const Setup& s, SolverLimits l) : setup(s), limits(l) {
    for (int a = 1; a <= kNumCards; ++a)
      for (int b = a + 1; b <= kNumCards; ++b)
        if (setup.numbers.strength[a] == setup.numbers.strength[b]) sort_free_cards = false;
  }

  void start_clock() {
    started = Clock::now();
    deadline.reset();
    if (limits.time_s > 0) deadline.emplace(limits.time_s, limits.clock);
  }
  void stop_clock() {
    stats.seconds += std::chrono::duration<double>(Clock::now() - started).count();
  }

  Context context_of(const Key& key) const {
    Context ctx;
    ctx.camps = camps_of(key);
    ctx.central = static_cast<std::uint16_t>(key.masks >> 16);
    ctx.deck = kAllCards & ~ctx.central & ~ctx.camps.mask(0) & ~ctx.camps.mask(1);
    int n = 0;
    for (unsigned c = ctx.central; c; c &= c - 1) ctx.cards[n++] = std::countr_zero(c);
    return ctx;
  }

  const Shape& shape_of(const Context& ctx) {
    ShapeKey key;
    for (int p = 0; p < kCentral; ++p) {
      key.requirement[p] = setup.numbers.requirement[ctx.cards[p]];
      if (ctx.cards[p] == kFukushima) key.fukushima = p;
    }
    for (int seat = 0; seat < 2; ++seat)
      key.ankokuji[seat] = ctx.camps.has_unblanked(seat, kAnkokuji);
    auto found = shapes.find(key.code());
    if (found != shapes.end()) return found->second;
    Shape& shape = shapes.emplace(key.code(), build_shape(key, setup.rule)).first->second;
    stats.bytes += shape.bytes();
    return shape;
  }

  // The stored values of a context, solving it first if needed.
  const std::vector<std::int16_t>& table(const Key& key) {
    auto found = tables.find(key);
    if (found != tables.end()) return found->second;
    if (stats.contexts >= limits.max_contexts)
      throw SolverBudgetExceeded("sekigahara solver: more than " +
                                 std::to_string(limits.max_contexts) + " contexts needed");
    if (deadline && deadline->passed())
      throw SolverBudgetExceeded("sekigahara solver: out of time after " +
                                 std::to_string(stats.contexts) + " contexts");
    interruption_point();  // a context takes well under a millisecond to solve
    std::vector<double> values(kNodes);
    solve(key, values, nullptr);
    std::vector<std::int16_t>& stored = tables[key];
    stored.resize(2 * static_cast<std::size_t>(compact().size));
    for (int node = 0; node < kNodes; ++node) {
      const int at = stored_index(node);
      if (at >= 0) stored[at] = static_cast<std::int16_t>(std::lround(values[node] * kScale));
    }
    ++stats.contexts;
    contexts_solved.store(stats.contexts, std::memory_order_relaxed);
    stats.nodes += kNodes;
    stats.bytes += static_cast<std::int64_t>(sizeof(std::int16_t) * stored.size() + sizeof(Key) +
                                             kMapOverhead);
    return stored;
  }

  // The value of any turn start: stored, or from a full solve of its context (kept for the next
  // question, which is usually about the same context).
  double node_value(const Key& key, int node) {
    const int at = stored_index(node);
    if (at >= 0) return table(key)[at] / kScale;
    if (!(full_key == key) || full_values.empty()) {
      std::vector<double> values(kNodes);
      solve(key, values, nullptr);  // may throw SolverBudgetExceeded: keep the old slot intact
      full_values = std::move(values);
      full_key = key;
    }
    return full_values[node];
  }

  // Acquisition of the cards in `remaining` (the turn player's order, card 5's and card 7's
  // choices), then the reveals: the value for each restricted cfg pair in `entries`.
  void acquisition(const Context& ctx, const Camps& camps, std::uint16_t remaining, int acquired,
                   int turn_player, const std::vector<std::uint16_t>& entries,
                   std::vector<double>& out) {
    if (remaining == 0) {
      reveals(ctx, camps, acquired, turn_player, entries, out);
      return;
    }
    if (std::popcount(remaining) == 1) {
      acquire(ctx, camps, remaining, std::countr_zero(remaining), acquired, turn_player, entries,
              out);
      return;
    }
    std::vector<double> option;
    bool first = true;
    for (unsigned r = remaining; r; r &= r - 1) {
      acquire(ctx, camps, remaining, std::countr_zero(r), acquired, turn_player, entries, option);
      keep_best(turn_player, first, option, out);
      first = false;
    }
  }

  void acquire(const Context& ctx, Camps camps, std::uint16_t remaining, int card, int acquired,
               int turn_player, const std::vector<std::uint16_t>& entries,
               std::vector<double>& out) {
    const int other = 1 - turn_player;
    Camp& mine = camps.camps[turn_player];
    mine.cards[mine.size++] = static_cast<std::int8_t>(card);
    remaining &= ~card_bit(card);
    ++acquired;
    std::vector<double> option;
    bool first = true;
    if (card == kHosokawa) {
      for (unsigned c = camps.mask(0) | camps.mask(1); c; c &= c - 1) {
        Camps blanked = camps;
        blanked.blank |= card_bit(std::countr_zero(c));
        acquisition(ctx, blanked, remaining, acquired, turn_player, entries, option);
        keep_best(turn_player, first, option, out);
        first = false;
      }
      return;
    }
    if (card == kKobayakawa && camps.camps[other].size > 0) {
      const int chooser = camps.has_unblanked(other, kOtani) ? other : turn_player;
      for (int j = 0; j < camps.camps[other].size; ++j) {
        Camps swapped = camps;
        swapped.camps[turn_player].cards[mine.size - 1] = swapped.camps[other].cards[j];
        swapped.camps[other].cards[j] = kKobayakawa;
        acquisition(ctx, swapped, remaining, acquired, turn_player, entries, option);
        keep_best(chooser, first, option, out);
        first = false;
      }
      return;
    }
    acquisition(ctx, camps, remaining, acquired, turn_player, entries, out);
  }

  // One reveal per acquired card while the deck lasts; every set of revealed cards is equally
  // likely. The opponent of the turn player moves next.
  void reveals(const Context& ctx, const Camps& camps, int acquired, int turn_player,
               const std::vector<std::uint16_t>& entries, std::vector<double>& out) {
    const CfgTables& t = cfgs();
    const Camps next = canonical(camps, sort_free_cards);
    const std::uint16_t kept = ctx.central & ~camps.mask(0) & ~camps.mask(1);
    const int count = std::min(acquired, std::popcount(ctx.deck));
    out.assign(entries.size(), 0.0);
    int outcomes = 0;
    for (unsigned s = ctx.deck;; s = (s - 1) & ctx.deck) {
      if (std::popcount(s) == count) {
        ++outcomes;
        if (ctx.deck == s) {
          const double result = result_of(camps, setup.numbers);
          for (double& v : out) v += result;
        } else {
          const std::uint16_t central = static_cast<std::uint16_t>(kept | s);
          const std::vector<std::int16_t>& child = table(make_key(next, central));
          // Where each child position's tokens come from (-1: a newly revealed card).
          std::array<int, kCentral> from{};
          int q = 0;
          for (unsigned c = central; c; c &= c - 1, ++q) {
            from[q] = -1;
            for (int p = 0; p < kCentral; ++p)
              if (ctx.cards[p] == std::countr_zero(c)) from[q] = p;
          }
          auto remap = [&](int k) {
            const auto& tok = t.tokens[k];
            auto at = [&](int i) { return from[i] < 0 ? 0 : tok[from[i]]; };
            return cfg_index(at(0), at(1), at(2));
          };
          for (std::size_t e = 0; e < entries.size(); ++e)
            out[e] += child[stored_index(node_of(1 - turn_player, remap(entries[e] / kCfgs),
                                                 remap(entries[e] % kCfgs)))] /
                      kScale;
        }
      }
      if (s == 0) break;
    }
    for (double& v : out) v /= outcomes;
  }

  // Values (for seat 0) of every turn start of the context; with `ranks`, also the order in
  // which the retrograde pass settled them.
  void solve(const Key& key, std::vector<double>& values, std::vector<std::uint32_t>* ranks) {
    const CfgTables& t = cfgs();
    const Context ctx = context_of(key);
    const Shape& shape = shape_of(ctx);
    const double final_result = result_of(ctx.camps, setup.numbers);

    // Exits: the mover acquires what they locked after the best action phase for them.
    std::array<std::vector<double>, 16> acquired_value;
    std::array<bool, 16> computed{};
    std::vector<double> by_entry;
    for (int u = 0; u < kNodes; ++u) {
      if (shape.kind[u] == kDead) values[u] = final_result;
      if (shape.kind[u] != kExit) continue;
      const int mover = u / kPairs;
      const int locks = shape.locks[u];
      const int slot = mover * 8 + locks;
      std::vector<double>& value_of = acquired_value[slot];
      if (!computed[slot]) {
        computed[slot] = true;
        std::uint16_t cards = 0;
        for (int p = 0; p < kCentral; ++p)
          if (locks >> p & 1) cards |= card_bit(ctx.cards[p]);
        const auto& entries = entries_by_mask()[locks];
        acquisition(ctx, ctx.camps, cards, 0, mover, entries, by_entry);
        value_of.assign(kPairs, 0.0);
        for (std::size_t e = 0; e < entries.size(); ++e) value_of[entries[e]] = by_entry[e];
      }
      const int k0 = u % kPairs / kCfgs;
      const int k1 = u % kCfgs;
      double best = mover == 0 ? -2.0 : 2.0;
      for (std::uint32_t i = shape.succ_begin[u]; i < shape.succ_begin[u + 1]; ++i) {
        const int k = shape.succ[i];
        const int a = t.zeroed[mover == 0 ? k : k0][locks];
        const int b = t.zeroed[mover == 0 ? k1 : k][locks];
        const double v = value_of[a * kCfgs + b];
        best = mover == 0 ? std::max(best, v) : std::min(best, v);
      }
      values[u] = best;
    }
    settle(shape, values, ranks);
  }

  // The retrograde pass over the internal nodes (see the header).
  static void settle(const Shape& shape, std::vector<double>& values,
                     std::vector<std::uint32_t>* ranks) {
    std::vector<std::uint8_t> settled(kNodes, 0);
    std::vector<int> waiting(kNodes);
    std::vector<int> queue;
    queue.reserve(kNodes);
    std::uint32_t rank = 0;
    if (ranks) ranks->assign(kNodes, 0);
    for (const int side : {0, 1}) {
      // side 0: seat 0 forcing values > 0, best first; side 1: seat 1 forcing values < 0.
      std::vector<int> exits;
      for (int u = 0; u < kNodes; ++u) {
        const int mover = u / kPairs;
        if (shape.kind[u] != kInternal) {
          if (side == 0 ? values[u] > 0 : values[u] < 0) exits.push_back(u);
        } else {
          waiting[u] =
              mover == side ? 1 : static_cast<int>(shape.succ_begin[u + 1] - shape.succ_begin[u]);
        }
      }
      std::sort(exits.begin(), exits.end(), [&](int a, int b) {
        return side == 0 ? values[a] > values[b] : values[a] < values[b];
      });
      for (std::size_t i = 0; i < exits.size();) {
        const double level = values[exits[i]];
        queue.clear();
        for (; i < exits.size() && values[exits[i]] == level; ++i) {
          queue.push_back(exits[i]);
          if (ranks) (*ranks)[exits[i]] = ++rank;
        }
        for (std::size_t head = 0; head < queue.size(); ++head) {
          const int v = queue[head];
          for (std::uint32_t j = shape.pred_begin[v]; j < shape.pred_begin[v + 1]; ++j) {
            const int p = shape.pred[j];
            if (settled[p] || --waiting[p] > 0) continue;
            settled[p] = 1;
            values[p] = level;
            if (ranks) (*ranks)[p] = ++rank;
            queue.push_back(p);
          }
        }
      }
    }
    for (int u = 0; u < kNodes; ++u)
      if (shape.kind[u] == kInternal && !settled[u]) values[u] = 0.0;
  }

  // A state at the start of an action phase after the first turn: a node of a context.
  static bool is_turn_start(const State& state) {
    return state.phase() == Phase::kAction && state.turn() >= 1 && state.actions_left() == kActions;
  }

  Key key_of(const State& state) const {
    Camps c;
    c.camps = state.camps();
    c.blank = state.blank();
    return make_key(canonical(c, sort_free_cards), state.central());
  }

  static int node_index(const State& state) {
    std::array<int, kCentral> cards{};
    int n = 0;
    for (unsigned c = state.central(); c; c &= c - 1) cards[n++] = std::countr_zero(c);
    auto cfg = [&](int seat) {
      return cfg_index(state.influence(seat, cards[0]), state.influence(seat, cards[1]),
                       state.influence(seat, cards[2]));
    };
    return node_of(state.turn_player(), cfg(0), cfg(1));
  }

  struct Ranked {
    double value;
    std::uint32_t rank;
  };

  // The value of any state: the engine's own rules down to the next turn starts, then the
  // context tables. With `current` (the bot's context, solved with ranks), turn starts of that
  // context also carry their rank.
  Ranked evaluate(const State& state, const Key* current, const std::vector<double>* values,
                  const std::vector<std::uint32_t>* ranks) {
    if (state.is_terminal()) {
      double result[2];
      state.returns(result);
      return {result[0], 0};
    }
    if (state.is_chance_node()) {
      ChanceOutcome outcomes[State::kMaxChanceOutcomes];
      const int n = state.chance_outcomes(outcomes);
      double sum = 0;
      for (int i = 0; i < n; ++i) {
        State child = state;
        child.apply(outcomes[i].action);
        sum += outcomes[i].probability * evaluate(child, current, values, ranks).value;
      }
      return {sum, 0};
    }
    if (is_turn_start(state)) {
      const Key key = key_of(state);
      const int node = node_index(state);
      if (current && key == *current) return {(*values)[node], (*ranks)[node]};
      return {node_value(key, node), 0};
    }
    Action actions[State::kMaxLegalActions];
    const int n = state.legal_actions(actions);
    Ranked best{};
    for (int i = 0; i < n; ++i) {
      State child = state;
      child.apply(actions[i]);
      const Ranked option = evaluate(child, current, values, ranks);
      if (i == 0 || better(state.current_player(), option, best)) best = option;
    }
    return best;
  }

  // Better for `seat`: a higher (seat 0) or lower (seat 1) value, then, among equally good
  // forced results, the one settled earlier, which is closer to being realised.
  static bool better(Player seat, const Ranked& a, const Ranked& b) {
    if (a.value != b.value) return seat == 0 ? a.value > b.value : a.value < b.value;
    const bool winning = seat == 0 ? a.value > 0 : a.value < 0;
    return winning && a.rank < b.rank;
  }

  Action best_action(const State& given) {
    const State state = given.without_turn_limit();
    if (state.is_chance_node() || state.is_terminal()) return -1;
    Action actions[State::kMaxLegalActions];
    const int n = state.legal_actions(actions);
    if (n == 1) return actions[0];
    Key key{};
    std::vector<double> values;
    std::vector<std::uint32_t> ranks;
    const bool in_context = state.phase() == Phase::kAction && state.turn() >= 1;
    if (in_context) {
      key = key_of(state);
      values.resize(kNodes);
      solve(key, values, &ranks);
    }
    Action best_action = actions[0];
    Ranked best{};
    for (int i = 0; i < n; ++i) {
      State child = state;
      child.apply(actions[i]);
      const Ranked option = in_context ? evaluate(child, &key, &values, &ranks)
                                       : evaluate(child, nullptr, nullptr, nullptr);
      if (i == 0 || better(state.current_player(), option, best)) {
        best = option;
        best_action = actions[i];
      }
    }
    return best_action;
  }
};

Solver::Solver(const Setup& setup, SolverLimits limits)
    : impl_(std::make_unique<Impl>(setup, limits)) {}
Solver::~Solver() = default;
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

double Solver::value(const State& state) {
  impl_->start_clock();
  try {
    const double v = impl_->evaluate(state.without_turn_limit(), nullptr, nullptr, nullptr).value;
    impl_->stop_clock();
    return v;
  } catch (...) {
    impl_->stop_clock();
    throw;
  }
}

Action Solver::best_action(const State& state) {
  impl_->start_clock();
  try {
    const Action action = impl_->best_action(state);
    impl_->stop_clock();
    return action;
  } catch (...) {
    impl_->stop_clock();
    throw;
  }
}

const SolverStats& Solver::stats() const { return impl_->stats; }

std::int64_t Solver::contexts_solved() const noexcept {
  return impl_->contexts_solved.load(std::memory_order_relaxed);
}

void Solver::set_limits(SolverLimits limits) { impl_->limits = limits; }

void Solver::clear() {
  impl_->tables.clear();
  impl_->shapes.clear();
  impl_->full_values.clear();
  impl_->stats = SolverStats{};
  impl_->contexts_solved.store(0, std::memory_order_relaxed);
}

}  // namespace rivals::sekigahara

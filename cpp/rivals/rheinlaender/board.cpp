#include "rivals/rheinlaender/board.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string_view>

namespace rivals::rheinlaender {
namespace {

constexpr std::string_view kFormat = "rivals-rheinlaender-map";
// Words of the action strings: an id equal to one of them would make strings ambiguous.
constexpr std::string_view kKeywords[] = {"bastion", "card",      "castle",    "church", "city",
                                          "discard", "reinforce", "reshuffle", "with"};

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 16) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '/' && c != '-'))) return false;
  }
  return std::find(std::begin(kKeywords), std::end(kKeywords), id) == std::end(kKeywords);
}

std::string check_id(const DataNode& node) {
  if (!node.json().is_string() || !valid_id(node.json().as_string())) {
    std::string words;
    for (const auto word : kKeywords) words += (words.empty() ? "" : ", ") + std::string(word);
    node.fail(
        "must be an id (1-16 characters from A-Z a-z 0-9 _ / -, starting with a letter or "
        "digit, not one of " +
        words + "), got " + node.shown());
  }
  return node.json().as_string();
}

bool int_in(const Json& value, std::int64_t low, std::int64_t high) {
  return value.is_int() && value.as_int() >= low && value.as_int() <= high;
}

}  // namespace

Board parse_map(const DataDocument& document) {
  const DataNode root(document);
  root.keys({"format", "version", "spaces", "sites", "landmarks"});
  if (root["format"].json() != Json(std::string(kFormat)))
    root["format"].fail("must be \"" + std::string(kFormat) + "\", got " + root["format"].shown());
  root["version"].integer(1, 1);

  Board board;
  const DataNode spaces = root["spaces"];
  board.spaces = static_cast<int>(spaces.list(1, kMaxSpaces));
  std::map<std::string, int, std::less<>> index;
  std::vector<bool> is_land;
  for (int i = 0; i < board.spaces; ++i) {
    const DataNode space = spaces[static_cast<std::size_t>(i)];
    space.keys({"id", "kind", "numbers", "neighbours"});
    const std::string id = check_id(space["id"]);
    if (index.count(id)) space["id"].fail("'" + id + "' is used twice");
    const bool land = space["kind"].choice(std::array{"river", "land"}) == 1;
    const DataNode nums = space["numbers"];
    std::vector<int> numbers;
    bool good = nums.json().is_array() && (nums.json().as_array().size() == 1 ||
                                           (land && nums.json().as_array().size() == 2));
    if (good) {
      for (const Json& n : nums.json().as_array()) {
        if (!int_in(n, 1, kMaxNumber) || (!numbers.empty() && n.as_int() <= numbers.back())) {
          good = false;
          break;
        }
        numbers.push_back(static_cast<int>(n.as_int()));
      }
    }
    if (!good)
      nums.fail(std::string("must be ") + (land ? "one or two" : "exactly one") +
                " distinct ascending numbers 1-" + std::to_string(kMaxNumber) + " for a " +
                (land ? "land" : "river") + " space, got " + nums.shown());
    index.emplace(id, i);
    board.ids.push_back(id);
    board.numbers.push_back(numbers);
    is_land.push_back(land);
    if (land) board.land.set(i);
  }

  std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(board.spaces));
  for (int i = 0; i < board.spaces; ++i) {
    const DataNode row = spaces[static_cast<std::size_t>(i)]["neighbours"];
    const std::size_t count = row.list(0, kMaxNeighbours);
    for (std::size_t k = 0; k < count; ++k) {
      const DataNode other = row[k];
      const auto found =
          other.json().is_string() ? index.find(other.json().as_string()) : index.end();
      if (found == index.end()) other.fail("must be a space id, got " + other.shown());
      const int j = found->second;
      if (j == i) other.fail("is the space itself");
      if (board.neighbours[i].test(j)) other.fail("repeats '" + board.ids[j] + "'");
      board.neighbours[i].set(j);
      adjacent[i].push_back(j);
    }
  }
  for (int i = 0; i < board.spaces; ++i)
    for (const int j : adjacent[i])
      if (!board.neighbours[j].test(i))
        spaces[static_cast<std::size_t>(j)]["neighbours"].fail(
            "must list '" + board.ids[i] + "': adjacency is symmetric, and '" + board.ids[i] +
            "' lists '" + board.ids[j] + "'");

  for (const auto& numbers : board.numbers)
    board.max_number = std::max(board.max_number, numbers.back());
  board.river_of.fill(-1);
  for (int i = 0; i < board.spaces; ++i) {
    for (const int n : board.numbers[i]) {
      if (is_land[i]) {
        board.land_of[n].set(i);
      } else if (board.river_of[n] >= 0) {
        spaces[static_cast<std::size_t>(i)]["numbers"].fail(
            "repeats number " + std::to_string(n) + " of the river space '" +
            board.ids[board.river_of[n]] + "' (one river space per number)");
      } else {
        board.river_of[n] = static_cast<std::int16_t>(i);
      }
    }
  }
  for (int n = 1; n <= board.max_number; ++n)
    if (!board.land_of[n].any())
      spaces.fail("have number " + std::to_string(n) + " on no land space (numbers must run 1.." +
                  std::to_string(board.max_number) + " without a gap, each reachable on land)");

  const DataNode sites = root["sites"];
  board.sites = static_cast<int>(sites.list(0, kMaxSites));
  for (int t = 0; t < board.sites; ++t) {
    const DataNode site = sites[static_cast<std::size_t>(t)];
    site.keys({"id", "touches"});
    const std::string id = check_id(site["id"]);
    if (index.count(id) ||
        std::find(board.site_ids.begin(), board.site_ids.end(), id) != board.site_ids.end())
      site["id"].fail("'" + id + "' is used twice");
    const DataNode pair = site["touches"];
    const bool listed =
        pair.json().is_array() && pair.json().as_array().size() == 2 &&
        std::all_of(pair.json().as_array().begin(), pair.json().as_array().end(),
                    [&](const Json& x) { return x.is_string() && index.count(x.as_string()) > 0; });
    if (!listed) pair.fail("must list exactly two space ids, got " + pair.shown());
    const int a = index.find(pair.json().as_array()[0].as_string())->second;
    const int b = index.find(pair.json().as_array()[1].as_string())->second;
    if (a == b || !is_land[a] || !is_land[b] || !board.neighbours[a].test(b))
      pair.fail("must be two land spaces that are neighbours, got " + pair.shown());
    board.site_ids.push_back(id);
    board.touches[t] = {static_cast<std::int16_t>(a), static_cast<std::int16_t>(b)};
    board.sites_at[a] |= std::uint64_t{1} << t;
    board.sites_at[b] |= std::uint64_t{1} << t;
    board.site_spaces.set(a);
    board.site_spaces.set(b);
  }

  const DataNode marks = root["landmarks"];
  marks.keys({"city", "castle", "church"});
  const DataNode cities = marks["city"];
  const std::size_t city_count = cities.list(0, kMaxSites);
  for (std::size_t k = 0; k < city_count; ++k) cities[k].integer(1, kMaxCity);
  const auto castles = marks["castle"].integer(0, kMaxSites);
  const auto churches = marks["church"].integer(0, kMaxSites);
  const std::int64_t total = castles + churches + static_cast<std::int64_t>(city_count);
  if (total != board.sites)
    marks.fail("must hold one chip per site: " + std::to_string(total) + " chips for " +
               std::to_string(board.sites) + " sites");
  board.chips[kCastle] = static_cast<int>(castles);
  board.chips[kChurch] = static_cast<int>(churches);
  for (std::size_t k = 0; k < city_count; ++k) ++board.chips[1 + cities[k].json().as_int()];
  return board;
}

}  // namespace rivals::rheinlaender

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

[[noreturn]] void fail(const std::string& source, const std::string& key,
                       const std::string& problem) {
  throw std::invalid_argument("bad Rheinländer map " + source + ": " + key + ": " + problem);
}

bool exact_keys(const Json& object, std::initializer_list<std::string_view> keys) {
  if (!object.is_object() || object.as_object().size() != keys.size()) return false;
  return std::all_of(keys.begin(), keys.end(),
                     [&](std::string_view key) { return object.find(key) != nullptr; });
}

bool valid_id(const Json& value) {
  if (!value.is_string()) return false;
  const std::string& id = value.as_string();
  if (id.empty() || id.size() > 16) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '/' && c != '-'))) return false;
  }
  return std::find(std::begin(kKeywords), std::end(kKeywords), id) == std::end(kKeywords);
}

std::string check_id(const Json& value, const std::string& source, const std::string& key) {
  if (!valid_id(value)) {
    std::string words;
    for (const auto word : kKeywords) words += (words.empty() ? "" : ", ") + std::string(word);
    fail(source, key,
         value.dump() +
             " is not a valid id (1-16 characters from A-Z a-z 0-9 _ / -, starting with a "
             "letter or digit, not one of " +
             words + ")");
  }
  return value.as_string();
}

bool int_in(const Json& value, std::int64_t low, std::int64_t high) {
  return value.is_int() && value.as_int() >= low && value.as_int() <= high;
}

}  // namespace

Board parse_map(const Json& data, const std::string& source) {
  if (!data.is_object()) fail(source, "(top level)", "a JSON object is expected");
  if (!exact_keys(data, {"format", "version", "spaces", "sites", "landmarks"}))
    fail(source, "(top level)",
         "the keys must be exactly format, landmarks, sites, spaces, version");
  const Json& format = *data.find("format");
  if (!format.is_string() || format.as_string() != kFormat)
    fail(source, "format", "must be '" + std::string(kFormat) + "', not " + format.dump());
  const Json& version = *data.find("version");
  if (!version.is_int() || version.as_int() != 1)
    fail(source, "version", "must be 1, not " + version.dump());

  Board board;
  const Json& spaces = *data.find("spaces");
  if (!spaces.is_array() || spaces.as_array().empty() ||
      spaces.as_array().size() > static_cast<std::size_t>(kMaxSpaces))
    fail(source, "spaces", "must be a list of 1-" + std::to_string(kMaxSpaces) + " spaces");
  const auto& list = spaces.as_array();
  board.spaces = static_cast<int>(list.size());
  std::map<std::string, int, std::less<>> index;
  std::vector<bool> is_land;
  for (int i = 0; i < board.spaces; ++i) {
    const Json& space = list[static_cast<std::size_t>(i)];
    const std::string key = "spaces[" + std::to_string(i) + "]";
    if (!exact_keys(space, {"id", "kind", "numbers", "neighbours"}))
      fail(source, key, "needs exactly the keys id, kind, numbers, neighbours");
    const std::string id = check_id(*space.find("id"), source, key + ".id");
    if (index.count(id)) fail(source, key + ".id", "'" + id + "' is used twice");
    const Json& kind = *space.find("kind");
    const bool land = kind.is_string() && kind.as_string() == "land";
    if (!land && !(kind.is_string() && kind.as_string() == "river"))
      fail(source, key + ".kind", "must be 'land' or 'river', not " + kind.dump());
    const Json& nums = *space.find("numbers");
    std::vector<int> numbers;
    bool good =
        nums.is_array() && (nums.as_array().size() == 1 || (land && nums.as_array().size() == 2));
    if (good) {
      for (const Json& n : nums.as_array()) {
        if (!int_in(n, 1, kMaxNumber) || (!numbers.empty() && n.as_int() <= numbers.back())) {
          good = false;
          break;
        }
        numbers.push_back(static_cast<int>(n.as_int()));
      }
    }
    if (!good)
      fail(source, key + ".numbers",
           std::string("a ") + (land ? "land" : "river") + " space needs " +
               (land ? "one or two" : "exactly one") + " distinct ascending numbers 1-" +
               std::to_string(kMaxNumber));
    index.emplace(id, i);
    board.ids.push_back(id);
    board.numbers.push_back(numbers);
    is_land.push_back(land);
    if (land) board.land.set(i);
  }

  std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(board.spaces));
  for (int i = 0; i < board.spaces; ++i) {
    const std::string key = "spaces[" + std::to_string(i) + "].neighbours";
    const Json& row = *list[static_cast<std::size_t>(i)].find("neighbours");
    if (!row.is_array() || row.as_array().size() > static_cast<std::size_t>(kMaxNeighbours))
      fail(source, key,
           "must be a list of at most " + std::to_string(kMaxNeighbours) + " space ids");
    for (const Json& other : row.as_array()) {
      const auto found = other.is_string() ? index.find(other.as_string()) : index.end();
      if (found == index.end()) fail(source, key, other.dump() + " is not a space id");
      const int j = found->second;
      if (j == i) fail(source, key, "'" + board.ids[i] + "' lists itself");
      if (board.neighbours[i].test(j)) fail(source, key, other.dump() + " is listed twice");
      board.neighbours[i].set(j);
      adjacent[i].push_back(j);
    }
  }
  for (int i = 0; i < board.spaces; ++i)
    for (const int j : adjacent[i])
      if (!board.neighbours[j].test(i))
        fail(source, "spaces[" + std::to_string(j) + "].neighbours",
             "adjacency must be symmetric: '" + board.ids[i] + "' lists '" + board.ids[j] +
                 "' but not back");

  for (const auto& numbers : board.numbers)
    board.max_number = std::max(board.max_number, numbers.back());
  board.river_of.fill(-1);
  for (int i = 0; i < board.spaces; ++i) {
    for (const int n : board.numbers[i]) {
      if (is_land[i]) {
        board.land_of[n].set(i);
      } else if (board.river_of[n] >= 0) {
        fail(source, "spaces[" + std::to_string(i) + "].numbers",
             "number " + std::to_string(n) + " has two river spaces ('" +
                 board.ids[board.river_of[n]] + "' and '" + board.ids[i] + "')");
      } else {
        board.river_of[n] = static_cast<std::int16_t>(i);
      }
    }
  }
  for (int n = 1; n <= board.max_number; ++n)
    if (!board.land_of[n].any())
      fail(source, "spaces",
           "number " + std::to_string(n) + " is on no land space (numbers must run 1.." +
               std::to_string(board.max_number) + " without a gap, each reachable on land)");

  const Json& sites = *data.find("sites");
  if (!sites.is_array() || sites.as_array().size() > static_cast<std::size_t>(kMaxSites))
    fail(source, "sites", "must be a list of at most " + std::to_string(kMaxSites) + " sites");
  board.sites = static_cast<int>(sites.as_array().size());
  for (int t = 0; t < board.sites; ++t) {
    const Json& site = sites.as_array()[static_cast<std::size_t>(t)];
    const std::string key = "sites[" + std::to_string(t) + "]";
    if (!exact_keys(site, {"id", "touches"}))
      fail(source, key, "needs exactly the keys id, touches");
    const std::string id = check_id(*site.find("id"), source, key + ".id");
    if (index.count(id) ||
        std::find(board.site_ids.begin(), board.site_ids.end(), id) != board.site_ids.end())
      fail(source, key + ".id", "'" + id + "' is used twice");
    const Json& pair = *site.find("touches");
    const bool listed =
        pair.is_array() && pair.as_array().size() == 2 &&
        std::all_of(pair.as_array().begin(), pair.as_array().end(),
                    [&](const Json& x) { return x.is_string() && index.count(x.as_string()) > 0; });
    if (!listed) fail(source, key + ".touches", "must list exactly two space ids");
    const int a = index.find(pair.as_array()[0].as_string())->second;
    const int b = index.find(pair.as_array()[1].as_string())->second;
    if (a == b || !is_land[a] || !is_land[b] || !board.neighbours[a].test(b))
      fail(source, key + ".touches",
           pair.as_array()[0].dump() + " and " + pair.as_array()[1].dump() +
               " must be two land spaces that are neighbours");
    board.site_ids.push_back(id);
    board.touches[t] = {static_cast<std::int16_t>(a), static_cast<std::int16_t>(b)};
    board.sites_at[a] |= std::uint64_t{1} << t;
    board.sites_at[b] |= std::uint64_t{1} << t;
    board.site_spaces.set(a);
    board.site_spaces.set(b);
  }

  const Json& marks = *data.find("landmarks");
  if (!exact_keys(marks, {"city", "castle", "church"}))
    fail(source, "landmarks", "needs exactly the keys city, castle, church");
  const Json& cities = *marks.find("city");
  if (!cities.is_array() || !std::all_of(cities.as_array().begin(), cities.as_array().end(),
                                         [](const Json& v) { return int_in(v, 1, kMaxCity); }))
    fail(source, "landmarks.city", "must be a list of city values 1-" + std::to_string(kMaxCity));
  for (const char* kind : {"castle", "church"})
    if (!int_in(*marks.find(kind), 0, INT64_MAX))
      fail(source, std::string("landmarks.") + kind, "must be an int >= 0");
  // Unsigned: two counts below 2^63 and the cities cannot overflow it.
  const auto castles = static_cast<std::uint64_t>(marks.find("castle")->as_int());
  const auto churches = static_cast<std::uint64_t>(marks.find("church")->as_int());
  const std::uint64_t total = castles + churches + cities.as_array().size();
  if (total != static_cast<std::uint64_t>(board.sites))
    fail(source, "landmarks",
         std::to_string(total) + " chips for " + std::to_string(board.sites) +
             " sites (one chip per site is needed)");
  board.chips[kCastle] = static_cast<int>(castles);
  board.chips[kChurch] = static_cast<int>(churches);
  for (const Json& v : cities.as_array()) ++board.chips[1 + v.as_int()];
  return board;
}

}  // namespace rivals::rheinlaender

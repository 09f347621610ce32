// Parameters of games and bots: each declares its parameters with their defaults and what they
// accept (kinds, ranges, choices); resolve_params checks every given value against the declaration
// before the game or bot sees it, so every parameter error is produced in one place and names the
// parameter it is about.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "rivals/core/json.h"

namespace rivals {

struct ParamSpec {
  // The JSON kinds a value may have, as bits. kNumber accepts ints too.
  enum Kinds : unsigned {
    kNull = 1,
    kBool = 2,
    kInt = 4,
    kNumber = 8,
    kString = 16,
    kArray = 32,
    kObject = 64,
  };

  std::string name;
  Json default_value;
  unsigned kinds = 0;
  // Numbers: the inclusive range; NaN and infinities are never accepted.
  double min = -std::numeric_limits<double>::max();
  double max = std::numeric_limits<double>::max();
  std::vector<Json> choices;  // when not empty, the only values accepted besides null
  unsigned item_kinds = 0;    // kArray: the kinds each item may have
  std::size_t max_items = std::numeric_limits<std::size_t>::max();  // kArray: the longest
  std::string forms;       // kString, kArray, kObject: what they stand for, in words
  std::string null_means;  // kNull: what null stands for
  std::string meaning;     // what the value does, in words

  // An int in [min, max].
  static ParamSpec integer(std::string name, Json default_value, std::int64_t min, std::int64_t max,
                           std::string meaning = {});
  // A finite number in [min, max].
  static ParamSpec number(std::string name, Json default_value, double min, double max,
                          std::string meaning = {});
  // One of `choices` (all of one kind).
  static ParamSpec choice(std::string name, Json default_value, std::vector<Json> choices,
                          std::string meaning = {});
  // Anything of `kinds` (strings, lists, objects: data files and their contents), described by
  // `forms`: "a path to a card file". A list holds at most `max_items` items of `item_kinds`.
  static ParamSpec data(std::string name, Json default_value, unsigned kinds, std::string forms,
                        unsigned item_kinds = 0,
                        std::size_t max_items = std::numeric_limits<std::size_t>::max());
  // The same, null accepted too and meaning `means`.
  ParamSpec or_null(std::string means) &&;

  // What a value may be, in words: "null (2 * players) or an int 1-50".
  std::string accepted() const;
  // Whether `value` is one of the accepted ones.
  bool accepts(const Json& value) const;
};

// The time budgets of the bots and the solver stay below this many seconds (a day): a finite
// bound keeps every deadline representable on the clock.
inline constexpr double kMaxSeconds = 86400;

// Returns the full parameter object (every default filled in, in declaration order). Throws
// std::invalid_argument for an unknown name, or for a value the declaration does not accept,
// naming `owner` (the game or bot), the parameter, what it accepts and the value given.
Json resolve_params(std::string_view owner, const std::vector<ParamSpec>& specs, const Json& given);

}  // namespace rivals

// Data files (card sets, maps): the ones shipped in python/rivals/data are compiled in; a user may
// point a game parameter at another file instead.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rivals/core/json.h"

namespace rivals {

namespace detail {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}

// The text of the shipped data file `name` (its file name without .json). Throws
// std::invalid_argument for an unknown name.
std::string_view embedded_data(std::string_view name);

// A game's data parameter: null selects the shipped file `default_name`, a string is a path to a
// JSON file, an object is the data itself. Throws std::invalid_argument naming the file and what
// is wrong with it.
Json load_data(const Json& param, std::string_view default_name);

// Reads a JSON file; errors name the path.
Json read_json_file(const std::string& path);

}  // namespace rivals

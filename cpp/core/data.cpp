#include "rivals/core/data.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rivals {

std::string_view embedded_data(std::string_view name) {
  for (const auto& [file, text] : detail::embedded_files())
    if (file == name) return text;
  throw std::invalid_argument("no shipped data file named '" + std::string(name) + "'");
}

Json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot open data file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("data file '" + path + "': " + error.what());
  }
}

Json load_data(const Json& param, std::string_view default_name) {
  if (param.is_null()) return Json::parse(embedded_data(default_name));
  if (param.is_string()) return read_json_file(param.as_string());
  if (param.is_object()) return param;
  throw std::invalid_argument(
      "a data parameter is null (the shipped file), a path or an object, got " +
      std::string(param.kind_name()));
}

}  // namespace rivals

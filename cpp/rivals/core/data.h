// Data documents (card sets, maps): how a game's data parameter is read, and one checker that
// every game's loader uses, so that every data error reads the same way:
//
//   sekigahara: cards file 'x.json': cards[3].strength must be an int 0-99, got 100
//
// A data parameter's value is one of
//   null             the game's shipped default,
//   "name"           a shipped document by name (python/rivals/data/<name>.json, compiled in),
//   any other string a path to a file,
//   an object        the document itself.
// A file is read only when it is a regular file of at most kMaxDataBytes bytes (a FIFO or a
// device is refused before it is read, so it can neither block nor stream for ever), and its text
// must be strict JSON (UTF-8, no repeated key, at most kMaxDataDepth levels deep). The message
// for a file that is not a data file says so without quoting it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/json.h"

namespace rivals {

// The largest data file read, in bytes (the shipped ones are below 32 KiB).
inline constexpr std::size_t kMaxDataBytes = std::size_t{4} << 20;
// The deepest nesting of arrays and objects in a data document (the shipped ones reach 5).
inline constexpr int kMaxDataDepth = 32;
// The longest string (key or value) in a data document, in bytes (the shipped ones reach 89).
inline constexpr std::size_t kMaxDataText = 1000;

namespace detail {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}

// Names of the shipped documents (their file names without .json), sorted.
std::vector<std::string> shipped_data_names();
bool is_shipped_data(std::string_view name);
// The text of the shipped document `name`. Throws std::invalid_argument for an unknown name.
std::string_view embedded_data(std::string_view name);

// One document of a data parameter and the words that name it in messages.
struct DataDocument {
  Json document;
  std::string source;  // "sekigahara: cards file 'x.json'", "... shipped cards 'sekigahara'"
};

// The document of a data parameter's `value` (see the top of this file). `label` names the
// parameter in messages ("cards", "expansions[2]"). Throws std::invalid_argument.
DataDocument read_data(std::string_view game, std::string_view label, const Json& value,
                       std::string_view default_name);

// The document of a data file's `text` (read by read_data_file), checked as read_data checks one.
DataDocument read_data_text(std::string_view text, std::string source);

// The text of the file at `path` under the rules above. `source` names it in messages.
std::string read_data_file(const std::string& path, const std::string& source);

// Parameter values for a replay or any other record that must read anywhere: a path becomes the
// document it named; null, shipped names and documents stay. `documents` is what the value
// resolved to (an array of documents for a list of values).
Json portable_data_value(const Json& value, const Json& documents);

// A value of a data document with its place in it, for checking: every failure names the
// document and the JSON path (`cards[3].strength`) before the problem.
class DataNode {
 public:
  explicit DataNode(const DataDocument& document)
      : document_(&document), value_(&document.document) {}

  const Json& json() const { return *value_; }
  // `cards[3].strength`; empty at the top. Found by searching the document, so that a node is two
  // pointers and checking a document builds no strings unless it fails.
  std::string path() const;
  const DataDocument& document() const { return *document_; }

  // "<source>: <path> <problem>"; at the top, "<source>: the document <problem>".
  [[noreturn]] void fail(std::string_view problem) const;

  // A member that keys() has made sure of, or that fails as missing.
  DataNode operator[](std::string_view key) const;
  DataNode operator[](std::size_t index) const;
  std::optional<DataNode> get(std::string_view key) const;

  // An object with every required key and no key outside required and optional.
  const Json::Object& keys(std::initializer_list<std::string_view> required,
                           std::initializer_list<std::string_view> optional = {}) const;
  // A list of min..max entries; returns its length.
  std::size_t list(std::size_t min, std::size_t max) const;
  std::int64_t integer(std::int64_t min, std::int64_t max) const;
  int small_int(int min, int max) const { return static_cast<int>(integer(min, max)); }
  bool boolean() const;
  // A string of at least `min_size` bytes (1: not empty).
  const std::string& string(std::size_t min_size = 0) const;
  // The index of the string among `names`.
  template <class Names>
  int choice(const Names& names) const {
    int i = 0;
    if (value_->is_string())
      for (const auto& name : names) {
        if (value_->as_string() == name) return i;
        ++i;
      }
    std::string list;
    for (const auto& name : names)
      list += (list.empty() ? "" : ", ") + Json(std::string(name)).dump();
    fail("must be one of " + list + ", got " + shown());
  }

  // The value as messages show it: JSON, cut after a few dozen characters.
  std::string shown() const;

 private:
  DataNode(const DataNode& parent, const Json& value)
      : document_(parent.document_), value_(&value) {}
  [[noreturn]] void fail_at(const std::string& path, std::string_view problem) const;

  const DataDocument* document_;
  const Json* value_;
};

}  // namespace rivals

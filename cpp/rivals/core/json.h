// A small JSON value: the engine's snapshots, parameters and data files all speak JSON, and C++
// users embedding the engine get them without a third-party library.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rivals {

class Json {
 public:
  using Array = std::vector<Json>;
  // Objects keep insertion order, so snapshots print their keys in the documented order.
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : value_(b) {}
  Json(int i) : value_(static_cast<std::int64_t>(i)) {}
  Json(std::int64_t i) : value_(i) {}
  Json(double d) : value_(d) {}
  Json(const char* s) : value_(std::string(s)) {}
  Json(std::string s) : value_(std::move(s)) {}
  Json(Array a) : value_(std::move(a)) {}
  Json(Object o) : value_(std::move(o)) {}

  static Json object(std::initializer_list<std::pair<std::string, Json>> members = {}) {
    return Json(Object(members));
  }
  static Json array() { return Json(Array{}); }
  template <class Range, class Fn>
  static Json array_of(const Range& range, Fn&& convert) {
    Array out;
    for (const auto& item : range) out.emplace_back(convert(item));
    return Json(std::move(out));
  }

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(value_); }
  bool is_number() const { return is_int() || std::holds_alternative<double>(value_); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }

  // Accessors throw std::invalid_argument naming the expected kind, so a bad data file or
  // parameter reaches Python as a ValueError rather than a crash.
  bool as_bool() const;
  std::int64_t as_int() const;
  double as_number() const;
  const std::string& as_string() const;
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;
  Object& as_object();

  // Object access: find returns nullptr when the key is absent; set replaces or appends.
  const Json* find(std::string_view key) const;
  void set(std::string_view key, Json value);
  Json& push_back(Json value);

  std::string dump() const;
  // The same text with the keys of every object sorted: equal documents give equal text, whatever
  // order their keys were written in.
  std::string dump_sorted() const;
  // The value as an error message quotes it: NaN and infinities (which dump() refuses, JSON
  // cannot hold them) by name, and text past `longest` bytes cut off with "...".
  std::string shown(std::size_t longest) const;

  // Deepest nesting that parse() accepts unless told otherwise.
  static constexpr int kMaxDepth = 256;
  // Strict RFC 8259 JSON: UTF-8 strings, no repeated key in an object, at most `max_depth` nested
  // arrays and objects. Throws std::invalid_argument naming the line and column of the first error
  // (never quoting the text).
  static Json parse(std::string_view text, int max_depth = kMaxDepth);
  static bool is_utf8(std::string_view text);

  const char* kind_name() const;
  friend bool operator==(const Json&, const Json&) = default;

  using Variant =
      std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object>;
  const Variant& variant() const { return value_; }

 private:
  Variant value_ = nullptr;
};

}  // namespace rivals

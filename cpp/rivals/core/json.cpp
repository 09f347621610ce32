// The engine's JSON reader and writer: one file, as the parser is one recursive descent with its
// error reporting (line, column and entry).
#include "rivals/core/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace rivals {
namespace {

[[noreturn]] void type_error(const Json& value, const char* wanted) {
  throw std::invalid_argument(std::string("expected ") + wanted + ", got " + value.kind_name());
}

void dump_string(const std::string& s, std::string& out) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void dump_value(const Json& value, std::string& out, bool sorted) {
  const auto& v = value.variant();
  if (value.is_null()) {
    out += "null";
  } else if (value.is_bool()) {
    out += std::get<bool>(v) ? "true" : "false";
  } else if (value.is_int()) {
    out += std::to_string(std::get<std::int64_t>(v));
  } else if (std::holds_alternative<double>(v)) {
    const double d = std::get<double>(v);
    if (!std::isfinite(d)) throw std::invalid_argument("JSON cannot hold a non-finite number");
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
    std::string text(buffer, result.ptr);
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";
    out += text;
  } else if (value.is_string()) {
    dump_string(value.as_string(), out);
  } else if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& item : value.as_array()) {
      if (!first) out += ", ";
      first = false;
      dump_value(item, out, sorted);
    }
    out += ']';
  } else {
    out += '{';
    std::vector<const std::pair<std::string, Json>*> members;
    for (const auto& member : value.as_object()) members.push_back(&member);
    if (sorted)
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->first < b->first; });
    bool first = true;
    for (const auto* member : members) {
      if (!first) out += ", ";
      first = false;
      dump_string(member->first, out);
      out += ": ";
      dump_value(member->second, out, sorted);
    }
    out += '}';
  }
}

bool valid_utf8_at(std::string_view text, std::size_t pos, std::size_t& length) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
  const unsigned lead = byte(0);
  std::uint32_t code = 0;
  std::uint32_t min = 0;
  if (lead < 0x80) {
    length = 1;
    return true;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
    min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
    min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
    min = 0x10000;
  } else {
    return false;
  }
  if (pos + length > text.size()) return false;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return false;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  return code >= min && !(code >= 0xD800 && code < 0xE000) && code <= 0x10FFFF;
}

// The bytes of a lone surrogate U+D800..U+DFFF written as if it were UTF-8 (CESU-8, or Python's
// surrogatepass): ED A0..BF 80..BF.
bool encoded_surrogate_at(std::string_view text, std::size_t pos) {
  const auto byte = [&](std::size_t i) {
    return pos + i < text.size() ? static_cast<unsigned char>(text[pos + i]) : 0u;
  };
  return byte(0) == 0xED && byte(1) >= 0xA0 && byte(1) <= 0xBF && (byte(2) & 0xC0) == 0x80;
}

// A lone surrogate, escaped (\ud800) or as its bytes: named, not quoted, as no text is.
constexpr const char* kLoneSurrogate = "a lone surrogate: text must be valid Unicode";

// The longest entry path a message shows; a deeper one keeps its end, where the error is.
constexpr std::size_t kLongestPath = 200;

class Parser {
 public:
  Parser(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  Json parse_document() {
    try {
      Json value = parse_value(0);
      skip_space();
      if (pos_ != text_.size()) fail("unexpected text after the JSON value");
      return value;
    } catch (const Failure& failure) {
      throw std::invalid_argument(message(failure));
    }
  }

 private:
  // A parse error on its way up: where it was found and, filled in by each array and object it
  // leaves, the path of the entry it was found in.
  struct Failure {
    std::size_t pos;
    std::string what;
    std::string path;
  };

  [[noreturn]] void fail(const std::string& what) const { throw Failure{pos_, what, {}}; }

  // Messages give the place (line, column and entry) but never quote the text: a file that is
  // not JSON at all (a password file, a binary) must not have its contents echoed back. Keys in
  // the path are the document's own, as a repeated key is named.
  std::string message(const Failure& failure) const {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < failure.pos && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) {
        ++column;
      }
    }
    std::string path = failure.path.starts_with('.') ? failure.path.substr(1) : failure.path;
    if (path.size() > kLongestPath) {
      std::size_t cut = path.size() - kLongestPath;
      while (cut < path.size() && (static_cast<unsigned char>(path[cut]) & 0xC0) == 0x80) ++cut;
      path = "..." + path.substr(cut);
    }
    return "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
           (path.empty() ? "" : ", in " + path) + ": " + failure.what;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!consume(c)) fail(std::string("expected '") + c + "'");
  }

  bool consume_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  // `depth` counts the arrays and objects around the value.
  Json parse_value(int depth) {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of text");
    const char c = text_[pos_];
    if ((c == '{' || c == '[') && depth >= max_depth_)
      fail("nested deeper than " + std::to_string(max_depth_) + " arrays and objects");
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json(parse_string());
    if (consume_word("null")) return Json(nullptr);
    if (consume_word("true")) return Json(true);
    if (consume_word("false")) return Json(false);
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    refuse_constant(pos_);
    fail("unexpected character");
  }

  Json parse_object(int depth) {
    ++pos_;
    Json::Object members;
    if (consume('}')) return Json(std::move(members));
    // Readers differ on a repeated key (some keep the first value, Python's json the last), so a
    // document with one would mean different things to different programs: it is refused. Small
    // objects are scanned; a large one gets a hash set so that it stays linear.
    std::unordered_set<std::string> seen;
    do {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key");
      const std::size_t key_at = pos_;
      std::string key = parse_string();
      bool repeated = false;
      if (members.size() < kScanLimit) {
        for (const auto& member : members) repeated = repeated || member.first == key;
      } else {
        if (seen.empty())
          for (const auto& member : members) seen.insert(member.first);
        repeated = !seen.insert(key).second;
      }
      if (repeated) {
        pos_ = key_at;
        fail("the key \"" + printable(key) + "\" appears twice in one object");
      }
      expect(':');
      try {
        Json value = parse_value(depth + 1);
        members.emplace_back(std::move(key), std::move(value));
      } catch (Failure& failure) {
        failure.path = "." + printable(key) + failure.path;
        throw;
      }
    } while (consume(','));
    expect('}');
    return Json(std::move(members));
  }

  // A key as it may appear in a message: control characters escaped, long keys cut (between
  // characters: a cut inside one would leave text that is not UTF-8).
  static std::string printable(const std::string& key) {
    std::string out;
    for (const char c : key) {
      if (out.size() >= 40 && (static_cast<unsigned char>(c) & 0xC0) != 0x80) return out + "...";
      if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned char>(c));
        out += buffer;
      } else {
        out += c;
      }
    }
    return out;
  }

  Json parse_array(int depth) {
    ++pos_;
    Json::Array items;
    if (consume(']')) return Json(std::move(items));
    do {
      try {
        items.push_back(parse_value(depth + 1));
      } catch (Failure& failure) {
        failure.path = "[" + std::to_string(items.size()) + "]" + failure.path;
        throw;
      }
    } while (consume(','));
    expect(']');
    return Json(std::move(items));
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("bad \\u escape");
    }
    return code;
  }

  static void append_utf8(unsigned code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string parse_string() {
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        std::size_t length = 0;
        if (!valid_utf8_at(text_, pos_, length)) {
          fail(encoded_surrogate_at(text_, pos_) ? kLoneSurrogate : "a string that is not UTF-8");
        }
        out.append(text_.substr(pos_, length));
        pos_ += length;
        continue;
      }
      ++pos_;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const std::size_t escape_at = pos_ - 2;
          unsigned code = parse_hex4();
          const auto lone = [&] {
            pos_ = escape_at;
            fail(kLoneSurrogate);
          };
          if (code >= 0xD800 && code < 0xDC00) {
            if (!consume_word("\\u")) lone();
            const unsigned low = parse_hex4();
            if (low < 0xDC00 || low >= 0xE000) lone();
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code < 0xE000) {
            lone();
          }
          append_utf8(code, out);
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  // NaN and Infinity, which some writers put where a number goes, named as what they are.
  void refuse_constant(std::size_t at) const {
    for (const std::string_view word : {"NaN", "Infinity", "-Infinity"})
      if (text_.substr(at, word.size()) == word) fail(std::string(word) + " is not a JSON number");
  }

  bool digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  // The grammar of RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  Json parse_number() {
    const std::size_t start = pos_;
    refuse_constant(start);
    if (text_[pos_] == '-') ++pos_;
    const std::size_t int_start = pos_;
    if (!digits()) fail("bad number");
    if (text_[int_start] == '0' && pos_ - int_start > 1) {
      pos_ = start;
      fail("bad number (a leading zero)");
    }
    bool is_float = false;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) fail("bad number");
      is_float = true;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) fail("bad number");
      is_float = true;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (!is_float) {
      std::int64_t i = 0;
      const auto result = std::from_chars(first, last, i);
      if (result.ec == std::errc() && result.ptr == last) return Json(i);
    }
    double d = 0;
    const auto result = std::from_chars(first, last, d);
    if (result.ec != std::errc() || result.ptr != last || !std::isfinite(d)) {
      pos_ = start;
      fail("a number out of range");
    }
    return Json(d);
  }

  static constexpr std::size_t kScanLimit = 16;

  std::string_view text_;
  int max_depth_;
  std::size_t pos_ = 0;
};

}  // namespace

const char* Json::kind_name() const {
  switch (value_.index()) {
    case 0:
      return "null";
    case 1:
      return "a boolean";
    case 2:
      return "an integer";
    case 3:
      return "a number";
    case 4:
      return "a string";
    case 5:
      return "an array";
    default:
      return "an object";
  }
}

bool Json::as_bool() const {
  if (!is_bool()) type_error(*this, "a boolean");
  return std::get<bool>(value_);
}

std::int64_t Json::as_int() const {
  if (is_int()) return std::get<std::int64_t>(value_);
  if (std::holds_alternative<double>(value_)) {
    const double d = std::get<double>(value_);
    if (std::floor(d) == d && std::fabs(d) < 9.0e15) return static_cast<std::int64_t>(d);
  }
  type_error(*this, "an integer");
}

double Json::as_number() const {
  if (is_int()) return static_cast<double>(std::get<std::int64_t>(value_));
  if (!std::holds_alternative<double>(value_)) type_error(*this, "a number");
  return std::get<double>(value_);
}

const std::string& Json::as_string() const {
  if (!is_string()) type_error(*this, "a string");
  return std::get<std::string>(value_);
}

const Json::Array& Json::as_array() const {
  if (!is_array()) type_error(*this, "an array");
  return std::get<Array>(value_);
}

// The mutable accessors check as the const ones do; the const_cast is sound, *this being mutable.
Json::Array& Json::as_array() { return const_cast<Array&>(std::as_const(*this).as_array()); }

const Json::Object& Json::as_object() const {
  if (!is_object()) type_error(*this, "an object");
  return std::get<Object>(value_);
}

Json::Object& Json::as_object() { return const_cast<Object&>(std::as_const(*this).as_object()); }

const Json* Json::find(std::string_view key) const {
  for (const auto& [name, value] : as_object())
    if (name == key) return &value;
  return nullptr;
}

void Json::set(std::string_view key, Json value) {
  for (auto& [name, existing] : as_object()) {
    if (name == key) {
      existing = std::move(value);
      return;
    }
  }
  as_object().emplace_back(std::string(key), std::move(value));
}

Json& Json::push_back(Json value) { return as_array().emplace_back(std::move(value)); }

std::string Json::dump() const {
  std::string out;
  dump_value(*this, out, false);
  return out;
}

std::string Json::dump_sorted() const {
  std::string out;
  dump_value(*this, out, true);
  return out;
}

std::string Json::shown(std::size_t longest) const {
  if (is_number() && !is_int() && !std::isfinite(as_number()))
    return std::isnan(as_number()) ? "nan" : as_number() > 0 ? "inf" : "-inf";
  std::string text;
  try {
    text = dump();
  } catch (const std::invalid_argument&) {
    return "a value holding a non-finite number";
  }
  if (text.size() <= longest) return text;
  std::size_t cut = longest;
  // Back to the start of a character: a cut inside one would leave invalid UTF-8.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

Json Json::parse(std::string_view text, int max_depth) {
  return Parser(text, max_depth).parse_document();
}

bool Json::is_utf8(std::string_view text) {
  std::size_t length = 0;
  for (std::size_t pos = 0; pos < text.size(); pos += length)
    if (!valid_utf8_at(text, pos, length)) return false;
  return true;
}

}  // namespace rivals

#include "rivals/core/data.h"

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#ifdef _WIN32
#include <filesystem>
#include <fstream>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace rivals {
namespace {

constexpr const char* kNotData =
    "is not a readable data file (a data file is one JSON object in UTF-8, at most 4 MiB)";

[[noreturn]] void fail(const std::string& source, std::string_view problem) {
  throw std::invalid_argument(source + ": " + std::string(problem));
}

int depth_of(const Json& value) {
  int deepest = 0;
  if (value.is_array())
    for (const Json& item : value.as_array()) deepest = std::max(deepest, depth_of(item));
  else if (value.is_object())
    for (const auto& [key, item] : value.as_object()) deepest = std::max(deepest, depth_of(item));
  else
    return 0;
  return deepest + 1;
}

std::string code_point(unsigned code) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "(U+";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
  return out + ")";
}

// The first problem of a string in a data document, or empty: more than kMaxDataText bytes, a
// control character (C0, DEL or C1: a terminal acts on them, and SVG cannot hold most), a
// direction control (U+202A..U+202E, U+2066..U+2069: they reorder the text around a name
// wherever it is shown) or U+FFFE/U+FFFF (which XML, and so SVG, cannot hold). The text is UTF-8.
std::string text_problem(std::string_view text) {
  if (text.size() > kMaxDataText) return "has more than " + std::to_string(kMaxDataText) + " bytes";
  const auto byte = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned c = byte(i);
    if (c < 0x20 || c == 0x7f) return "has a control character " + code_point(c);
    if (c == 0xc2 && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9f)
      return "has a control character " + code_point(byte(i + 1));
    if (c == 0xe2 || c == 0xef) {  // the lead byte of U+2000..U+2FFF or U+F000..U+FFFF
      const unsigned code = ((c & 0x0f) << 12) | ((byte(i + 1) & 0x3f) << 6) | (byte(i + 2) & 0x3f);
      if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
        return "has a direction control character " + code_point(code);
      if (code == 0xfffe || code == 0xffff) return "has a noncharacter " + code_point(code);
    }
  }
  return {};
}

// Every key and string of a document passes text_problem; `path` is where `node` sits.
void check_texts(const Json& node, std::string& path, const std::string& source) {
  const auto where = [&] { return path.empty() ? std::string("the document") : path; };
  if (node.is_string()) {
    if (const std::string problem = text_problem(node.as_string()); !problem.empty())
      fail(source, where() + " " + problem);
  } else if (node.is_array()) {
    const std::size_t size = path.size();
    const auto& items = node.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      path += "[" + std::to_string(i) + "]";
      check_texts(items[i], path, source);
      path.resize(size);
    }
  } else if (node.is_object()) {
    const std::size_t size = path.size();
    for (const auto& [key, item] : node.as_object()) {
      if (const std::string problem = text_problem(key); !problem.empty())
        fail(source, where() + " has a key that " + problem);
      path += (size == 0 ? "" : ".") + key;
      check_texts(item, path, source);
      path.resize(size);
    }
  }
}

DataDocument checked(Json document, std::string source) {
  std::string path;
  check_texts(document, path, source);
  return {std::move(document), std::move(source)};
}

Json parse_data_text(std::string_view text, const std::string& source) {
  // A file that does not even start like a JSON object is not quoted or parsed further: its
  // bytes (a password file, a binary) are none of the message's business.
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') fail(source, kNotData);
  try {
    return Json::parse(text, kMaxDataDepth);
  } catch (const std::invalid_argument& error) {
    fail(source, std::string("is not valid JSON (") + error.what() + ")");
  }
}

DataDocument shipped(const std::string& prefix, std::string_view label, std::string_view name) {
  std::string source = prefix + "shipped " + std::string(label) + " " + quoted(name);
  return {Json::parse(embedded_data(name), kMaxDataDepth), std::move(source)};
}

}  // namespace

std::vector<std::string> shipped_data_names() {
  std::vector<std::string> names;
  for (const auto& [name, text] : detail::embedded_files()) names.emplace_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

bool is_shipped_data(std::string_view name) {
  const auto& files = detail::embedded_files();
  return std::any_of(files.begin(), files.end(),
                     [&](const auto& file) { return file.first == name; });
}

std::string_view embedded_data(std::string_view name) {
  for (const auto& [file, text] : detail::embedded_files())
    if (file == name) return text;
  throw std::invalid_argument("no shipped data file named " + quoted(name));
}

std::string read_data_file(const std::string& path, const std::string& source) {
  // The path is checked whole: the operating system would stop at a NUL and open the prefix.
  if (path.find('\0') != std::string::npos) fail(source, "a path must not contain a NUL character");
  if (path.empty()) fail(source, "an empty path names no file");
  std::string text;
#ifdef _WIN32
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) fail(source, "no such file");
  if (error) fail(source, kNotData);
  if (std::filesystem::is_directory(status)) fail(source, "is a directory");
  if (!std::filesystem::is_regular_file(status)) fail(source, "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(source, kNotData);
  text.resize(kMaxDataBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) fail(source, kNotData);
  text.resize(static_cast<std::size_t>(in.gcount()));
#else
  // Opened without blocking (a FIFO with no writer would wait for ever) and checked through the
  // descriptor, so the file checked is the file read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) fail(source, "no such file");
    if (errno == EISDIR) fail(source, "is a directory");
    if (errno == ENXIO) fail(source, "is not a regular file");
    fail(source, kNotData);
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info{};
  if (::fstat(fd, &info) != 0) fail(source, kNotData);
  if (S_ISDIR(info.st_mode)) fail(source, "is a directory");
  if (!S_ISREG(info.st_mode)) fail(source, "is not a regular file");
  if (static_cast<std::uintmax_t>(info.st_size) > kMaxDataBytes)
    fail(source, "is larger than the 4 MiB a data file may have");
  // One byte more than allowed is asked for, to notice a file that grew since fstat.
  text.resize(kMaxDataBytes + 1);
  std::size_t size = 0;
  while (size < text.size()) {
    const ssize_t got = ::read(fd, text.data() + size, text.size() - size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(source, kNotData);
    if (got == 0) break;
    size += static_cast<std::size_t>(got);
  }
  text.resize(size);
#endif
  if (text.size() > kMaxDataBytes) fail(source, "is larger than the 4 MiB a data file may have");
  return text;
}

DataDocument read_data_text(std::string_view text, std::string source) {
  Json document = parse_data_text(text, source);
  return checked(std::move(document), std::move(source));
}

DataDocument read_data(std::string_view game, std::string_view label, const Json& value,
                       std::string_view default_name) {
  const std::string prefix = std::string(game) + ": ";
  if (value.is_null()) return shipped(prefix, label, default_name);
  if (value.is_string()) {
    const std::string& text = value.as_string();
    if (is_shipped_data(text)) return shipped(prefix, label, text);
    std::string source = prefix + std::string(label) + " file " + quoted(text);
    const std::string contents = read_data_file(text, source);
    return read_data_text(contents, std::move(source));
  }
  if (value.is_object()) {
    std::string source = prefix + std::string(label) + " object";
    if (depth_of(value) > kMaxDataDepth)
      fail(source,
           "is nested deeper than " + std::to_string(kMaxDataDepth) + " arrays and objects");
    return checked(value, std::move(source));
  }
  std::string names;
  for (const auto& name : shipped_data_names()) names += (names.empty() ? "" : ", ") + name;
  throw std::invalid_argument(prefix + "parameter " + std::string(label) +
                              " must be null (the shipped default), a shipped name (" + names +
                              "), a path to a file or the document itself, got " +
                              value.kind_name());
}

Json portable_data_value(const Json& value, const Json& documents) {
  if (value.is_string() && !is_shipped_data(value.as_string())) return documents;
  if (value.is_array() && documents.is_array() &&
      value.as_array().size() == documents.as_array().size()) {
    Json out = Json::array();
    for (std::size_t i = 0; i < value.as_array().size(); ++i)
      out.push_back(portable_data_value(value.as_array()[i], documents.as_array()[i]));
    return out;
  }
  return value;
}

namespace {

// Appends to `path` the way from `node` to `target`; false when `target` is not inside `node`.
bool find_path(const Json& node, const Json* target, std::string& path) {
  if (&node == target) return true;
  const std::size_t size = path.size();
  if (node.is_array()) {
    const auto& items = node.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      path += "[" + std::to_string(i) + "]";
      if (find_path(items[i], target, path)) return true;
      path.resize(size);
    }
  } else if (node.is_object()) {
    for (const auto& [key, item] : node.as_object()) {
      path += (size == 0 ? "" : ".") + key;
      if (find_path(item, target, path)) return true;
      path.resize(size);
    }
  }
  return false;
}

}  // namespace

std::string DataNode::path() const {
  std::string path;
  find_path(document_->document, value_, path);
  return path;
}

void DataNode::fail_at(const std::string& path, std::string_view problem) const {
  const std::string where = path.empty() ? std::string("the document") : path;
  throw std::invalid_argument(document_->source + ": " + where + " " + std::string(problem));
}

void DataNode::fail(std::string_view problem) const { fail_at(path(), problem); }

std::string DataNode::shown() const { return value_->shown(60); }

DataNode DataNode::operator[](std::string_view key) const {
  const Json* member = value_->is_object() ? value_->find(key) : nullptr;
  if (member == nullptr) {
    const std::string at = path();
    fail_at(at.empty() ? std::string(key) : at + "." + std::string(key), "is missing");
  }
  return DataNode(*this, *member);
}

DataNode DataNode::operator[](std::size_t index) const {
  if (!value_->is_array() || index >= value_->as_array().size())
    fail_at(path() + "[" + std::to_string(index) + "]", "is missing");
  return DataNode(*this, value_->as_array()[index]);
}

std::optional<DataNode> DataNode::get(std::string_view key) const {
  if (!value_->is_object() || value_->find(key) == nullptr) return std::nullopt;
  return (*this)[key];
}

const Json::Object& DataNode::keys(std::initializer_list<std::string_view> required,
                                   std::initializer_list<std::string_view> optional) const {
  if (!value_->is_object()) fail(std::string("must be an object, got ") + value_->kind_name());
  const auto known = [&](std::string_view key) {
    return std::find(required.begin(), required.end(), key) != required.end() ||
           std::find(optional.begin(), optional.end(), key) != optional.end();
  };
  for (const auto& [key, value] : value_->as_object()) {
    if (known(key)) continue;
    std::vector<std::string_view> accepted(required);
    accepted.insert(accepted.end(), optional.begin(), optional.end());
    std::sort(accepted.begin(), accepted.end());
    std::string list;
    for (const auto name : accepted) list += (list.empty() ? "" : ", ") + std::string(name);
    fail("has an unknown key " + quoted(key) + " (accepted: " + list + ")");
  }
  for (const auto key : required)
    if (value_->find(key) == nullptr) (*this)[key];  // fails: missing
  return value_->as_object();
}

std::size_t DataNode::list(std::size_t min, std::size_t max) const {
  const bool unbounded = max == static_cast<std::size_t>(-1);
  const std::string what =
      min == max   ? "a list of " + std::to_string(min) + " entries"
      : !unbounded ? "a list of " + std::to_string(min) + "-" + std::to_string(max) + " entries"
      : min > 0    ? "a list of at least " + std::to_string(min) + " entries"
                   : std::string("a list");
  if (!value_->is_array()) fail("must be " + what + ", got " + value_->kind_name());
  const std::size_t size = value_->as_array().size();
  if (size < min || size > max) fail("must be " + what + ", got " + std::to_string(size));
  return size;
}

std::int64_t DataNode::integer(std::int64_t min, std::int64_t max) const {
  if (!value_->is_int() || value_->as_int() < min || value_->as_int() > max)
    fail((min == max ? "must be " + std::to_string(min)
                     : "must be an int " + std::to_string(min) + "-" + std::to_string(max)) +
         ", got " + shown());
  return value_->as_int();
}

bool DataNode::boolean() const {
  if (!value_->is_bool()) fail("must be true or false, got " + shown());
  return value_->as_bool();
}

const std::string& DataNode::string(std::size_t min_size) const {
  if (!value_->is_string()) fail("must be a string, got " + shown());
  if (value_->as_string().size() < min_size)
    fail(min_size == 1 ? "must not be empty"
                       : "must have at least " + std::to_string(min_size) + " bytes");
  return value_->as_string();
}

}  // namespace rivals

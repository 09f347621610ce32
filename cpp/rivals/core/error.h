// The errors the engine raises. InvalidArgument is about its caller's input: std::invalid_argument
// hands its message out as a C string, which ends at the first NUL byte, and user text (a game
// name, a parameter name, action text) may hold one; InvalidArgument keeps the whole message, and
// the Python bindings pass it on with its length.
#pragma once

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rivals {

class InvalidArgument : public std::invalid_argument {
 public:
  explicit InvalidArgument(const std::string& message)
      : std::invalid_argument(message), message_(std::make_shared<const std::string>(message)) {}

  // The whole message, NUL bytes included.
  std::string_view message() const noexcept { return *message_; }

 private:
  std::shared_ptr<const std::string> message_;  // shared, so copying the exception cannot throw
};

// The whole message of any exception: message() for an InvalidArgument, what() otherwise.
inline std::string_view message_of(const std::exception& error) noexcept {
  if (const auto* invalid = dynamic_cast<const InvalidArgument*>(&error)) return invalid->message();
  return error.what();
}

// Text from the caller or a file (a name, a key, a path, action text) as a message shows it:
// quoted, control characters escaped (C1 ones too: a terminal may act on them) and cut after 200
// bytes at a character's start, so a message never carries terminal escapes, never echoes a
// megabyte and stays UTF-8.
inline std::string quoted(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (i >= 200 && (c & 0xc0) != 0x80) {
      out += "...";
      break;
    }
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {
      out += "\\u00";
      out += kHex[next >> 4];
      out += kHex[next & 15];
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

// A search or solver ran out of the budget it was given (time, memory) before it could answer.
// Python sees rivals.BudgetExceeded, a RuntimeError.
class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rivals

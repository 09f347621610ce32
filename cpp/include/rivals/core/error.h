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

// A search or solver ran out of the budget it was given (time, memory) before it could answer.
// Python sees rivals.BudgetExceeded, a RuntimeError.
class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rivals

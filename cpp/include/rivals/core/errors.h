// Exceptions of the engine besides the standard ones it uses for bad input
// (std::invalid_argument) and for taking back a move that is not there (std::out_of_range).
#pragma once

#include <stdexcept>

namespace rivals {

// A search or solver ran out of the budget it was given (time, memory) before it could answer.
// Python sees rivals.BudgetExceeded, a RuntimeError.
class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rivals

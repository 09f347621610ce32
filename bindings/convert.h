// Conversions between the engine's JSON values and Python objects, and of the numbers Python code
// passes in. Every malformed value is a ValueError naming what it was for, never a TypeError,
// an OverflowError or a crash.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "rivals/core/json.h"
#include "rivals/core/types.h"

namespace rivals::bindings {

// Parameters and data documents are shallow; a value nested deeper than this is refused rather
// than converted by recursion that could overflow the stack.
inline constexpr int kMaxNesting = 64;

nanobind::object to_python(const Json& value);
// The UTF-8 text of a Python str; a str with lone surrogates raises ValueError naming `where`.
std::string to_utf8(nanobind::handle text, const std::string& where);
// Accepts None, bool, int, float, str, list/tuple and dict with str keys, nested at most
// kMaxNesting deep; anything else raises ValueError naming the offending type and where it sits.
Json from_python(nanobind::handle value, const std::string& where = "value");

// An integral number as Python code passes it: anything operator.index accepts (int, numpy
// integers), never a bool or a float, as a Python int of any size. Raises ValueError naming
// `what` and the value.
nanobind::int_ to_python_int(nanobind::handle value, std::string_view what);
// The same, within lo..hi, else ValueError naming `what`, the range and the value.
std::int64_t to_integer(nanobind::handle value, std::string_view what, std::int64_t lo,
                        std::int64_t hi);
// The same for an int argument of the engine (counts, indices): within 32 bits.
int to_int(nanobind::handle value, std::string_view what, std::int64_t lo, std::int64_t hi);
// A seed: an integral number in 0..2**64-1, else ValueError naming the value.
std::uint64_t to_seed(nanobind::handle value);
// An action: an integral number within 32 bits, else ValueError naming the value.
Action to_action(nanobind::handle value);

// The items of a list or tuple (of a subclass too) as a tuple that holds them. Converting an item
// may run Python code (__index__) that changes or frees the list it came from: a loop over the
// list itself would then read freed items.
nanobind::tuple items_of(nanobind::handle list_or_tuple);

// repr(value), cut short when long, for error messages.
std::string shown(nanobind::handle value);

}  // namespace rivals::bindings

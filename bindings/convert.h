// Conversions between the engine's JSON values and Python objects.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "rivals/core/json.h"

namespace rivals::bindings {

nanobind::object to_python(const Json& value);
// The UTF-8 text of a Python str; a str with lone surrogates raises ValueError naming `where`.
std::string to_utf8(nanobind::handle text, const std::string& where);
// Accepts None, bool, int, float, str, list/tuple and dict with str keys; anything else raises
// ValueError naming the offending type and where it sits.
Json from_python(nanobind::handle value, const std::string& where = "value");

// A seed from Python: an int in 0..2**64-1, else ValueError naming the value.
std::uint64_t to_seed(const nanobind::int_& value);

}  // namespace rivals::bindings

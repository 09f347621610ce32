#include "convert.h"

#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>

namespace nb = nanobind;

namespace rivals::bindings {

nb::object to_python(const Json& value) {
  if (value.is_null()) return nb::none();
  if (value.is_bool()) return nb::bool_(value.as_bool());
  if (value.is_int()) return nb::int_(value.as_int());
  if (value.is_number()) return nb::float_(value.as_number());
  if (value.is_string()) return nb::str(value.as_string().c_str(), value.as_string().size());
  if (value.is_array()) {
    nb::list out;
    for (const auto& item : value.as_array()) out.append(to_python(item));
    return out;
  }
  nb::dict out;
  for (const auto& [key, item] : value.as_object())
    out[nb::str(key.c_str(), key.size())] = to_python(item);
  return out;
}

std::string to_utf8(nb::handle text, const std::string& where) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) {
    // A str may hold lone surrogates, which have no UTF-8 form; that is bad input, not a crash.
    PyErr_Clear();
    throw std::invalid_argument(where + ": text is not valid Unicode (a lone surrogate)");
  }
  return std::string(data, static_cast<std::size_t>(size));
}

Json from_python(nb::handle value, const std::string& where) {
  if (value.is_none()) return Json(nullptr);
  if (nb::isinstance<nb::bool_>(value)) return Json(nb::cast<bool>(value));
  if (nb::isinstance<nb::int_>(value)) {
    try {
      return Json(nb::cast<std::int64_t>(value));
    } catch (const nb::cast_error&) {
      throw std::invalid_argument(where + ": integer out of range");
    }
  }
  if (nb::isinstance<nb::float_>(value)) return Json(nb::cast<double>(value));
  if (nb::isinstance<nb::str>(value)) return Json(to_utf8(value, where));
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
    Json out = Json::array();
    std::size_t index = 0;
    for (nb::handle item : value)
      out.push_back(from_python(item, where + "[" + std::to_string(index++) + "]"));
    return out;
  }
  if (nb::isinstance<nb::dict>(value)) {
    Json out = Json::object();
    const auto dict = nb::borrow<nb::dict>(value);
    for (auto [key, item] : dict) {
      if (!nb::isinstance<nb::str>(key))
        throw std::invalid_argument(where + ": keys must be strings");
      const auto name = to_utf8(key, where);
      out.set(name, from_python(item, where + "." + name));
    }
    return out;
  }
  throw std::invalid_argument(where + ": cannot use a value of type " +
                              nb::cast<std::string>(nb::str(value.type().attr("__name__"))));
}

std::uint64_t to_seed(const nb::int_& value) {
  std::uint64_t seed = 0;
  if (!nb::try_cast<std::uint64_t>(value, seed))
    throw std::invalid_argument("seed must be an int 0..2**64-1, got " +
                                nb::cast<std::string>(nb::str(value)));
  return seed;
}

}  // namespace rivals::bindings

#include "convert.h"

#include <nanobind/stl/string.h>

#include <climits>
#include <cstring>
#include <string>

#include "rivals/core/error.h"

namespace nb = nanobind;

namespace rivals::bindings {
namespace {

std::string python_type_name(nb::handle value) {
  return nb::cast<std::string>(nb::str(value.type().attr("__name__")));
}

// numpy.bool_ has __index__ in some numpy versions (up to 2.0 with only a DeprecationWarning); a
// truth value is not a number here. Known by the type's module and name as Python spells them
// (the stable ABI hides PyTypeObject's fields).
bool is_boolean(nb::handle value) {
  if (PyBool_Check(value.ptr())) return true;
  const nb::object module = nb::getattr(value.type(), "__module__", nb::none());
  if (!nb::isinstance<nb::str>(module) || std::strcmp(nb::str(module).c_str(), "numpy") != 0)
    return false;
  const std::string name = python_type_name(value);
  return name == "bool_" || name == "bool";
}

// The Python int for `value` (operator.index), or a null object when it is not integral.
nb::object as_index(nb::handle value) {
  if (PyLong_CheckExact(value.ptr())) return nb::borrow(value);
  if (is_boolean(value)) return {};
  PyObject* index = PyNumber_Index(value.ptr());
  if (index != nullptr) return nb::steal(index);
  // Not integral (a float, None, a str...) is the caller's ValueError; anything else that
  // __index__ raised is the caller's own error and goes through as it is.
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw nb::python_error();
  PyErr_Clear();
  return {};
}

Json from_python_at(nb::handle value, const std::string& where, int depth) {
  if (depth > kMaxNesting)
    throw InvalidArgument(where + ": nested more than " + std::to_string(kMaxNesting) +
                          " levels deep");
  if (value.is_none()) return Json(nullptr);
  if (nb::isinstance<nb::bool_>(value)) return Json(nb::cast<bool>(value));
  if (nb::isinstance<nb::int_>(value)) {
    int overflow = 0;
    const long long number = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (number == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow != 0)
      throw InvalidArgument(where + ": integer " + shown(value) + " is out of range (64 bits)");
    return Json(static_cast<std::int64_t>(number));
  }
  if (nb::isinstance<nb::float_>(value)) return Json(nb::cast<double>(value));
  if (nb::isinstance<nb::str>(value)) return Json(to_utf8(value, where));
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
    const nb::tuple items = items_of(value);
    Json out = Json::array();
    for (std::size_t i = 0; i < items.size(); ++i)
      out.push_back(from_python_at(items[i], where + "[" + std::to_string(i) + "]", depth + 1));
    return out;
  }
  if (nb::isinstance<nb::dict>(value)) {
    // The (key, value) pairs as they are now, each held: the reason items_of gives.
    const nb::object pairs = nb::steal(PyDict_Items(value.ptr()));
    if (!pairs.is_valid()) throw nb::python_error();
    Json out = Json::object();
    for (Py_ssize_t i = 0; i < NB_LIST_GET_SIZE(pairs.ptr()); ++i) {
      nb::handle pair = NB_LIST_GET_ITEM(pairs.ptr(), i);
      nb::handle key = NB_TUPLE_GET_ITEM(pair.ptr(), 0);
      if (!nb::isinstance<nb::str>(key)) throw InvalidArgument(where + ": keys must be strings");
      const auto name = to_utf8(key, where);
      out.set(name,
              from_python_at(NB_TUPLE_GET_ITEM(pair.ptr(), 1), where + "." + name, depth + 1));
    }
    return out;
  }
  // Another integral number (numpy's int64, for one): the int it stands for.
  if (const nb::object index = as_index(value); index.is_valid())
    return from_python_at(index, where, depth + 1);
  throw InvalidArgument(where + ": cannot use a value of type " + python_type_name(value));
}

}  // namespace

nb::tuple items_of(nb::handle list_or_tuple) {
  if (PyTuple_Check(list_or_tuple.ptr())) return nb::borrow<nb::tuple>(list_or_tuple);
  // The list's own array, copied: not through __iter__, which a subclass may have made endless.
  PyObject* items = PyList_AsTuple(list_or_tuple.ptr());
  if (items == nullptr) throw nb::python_error();
  return nb::steal<nb::tuple>(items);
}

// The engine's own values are shallow, and parsed documents are bounded by the JSON parser.
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
  if (!PyUnicode_Check(text.ptr()))
    throw InvalidArgument(where + ": expected a str, got a value of type " +
                          python_type_name(text));
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) {
    // A str may hold lone surrogates, which have no UTF-8 form; that is bad input, not a crash.
    PyErr_Clear();
    throw InvalidArgument(where + ": text is not valid Unicode (a lone surrogate)");
  }
  return std::string(data, static_cast<std::size_t>(size));
}

Json from_python(nb::handle value, const std::string& where) {
  return from_python_at(value, where, 0);
}

std::string shown(nb::handle value) {
  constexpr std::size_t kLongest = 80;
  PyObject* text = PyObject_Repr(value.ptr());
  if (text == nullptr) {
    PyErr_Clear();
    return "a " + python_type_name(value);
  }
  std::string out = to_utf8(nb::steal(text), "repr");
  for (char& c : out)
    if (c == '\n') c = ' ';  // a numpy array's repr spans lines; a message stays on one
  if (out.size() > kLongest) out = out.substr(0, kLongest) + "...";
  return out;
}

nb::int_ to_python_int(nb::handle value, std::string_view what) {
  const nb::object index = as_index(value);
  if (!index.is_valid())
    throw InvalidArgument(std::string(what) + " must be an int, got " + python_type_name(value) +
                          " " + shown(value));
  return nb::borrow<nb::int_>(index);
}

std::int64_t to_integer(nb::handle value, std::string_view what, std::int64_t lo, std::int64_t hi) {
  const nb::object index = as_index(value);
  const auto range = [&] { return std::to_string(lo) + ".." + std::to_string(hi); };
  if (!index.is_valid())
    throw InvalidArgument(std::string(what) + " must be an int " + range() + ", got " +
                          python_type_name(value) + " " + shown(value));
  int overflow = 0;
  const long long number = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (number == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow != 0 || number < lo || number > hi)
    throw InvalidArgument(std::string(what) + " must be an int " + range() + ", got " +
                          shown(index));
  return number;
}

int to_int(nb::handle value, std::string_view what, std::int64_t lo, std::int64_t hi) {
  return static_cast<int>(to_integer(value, what, std::max<std::int64_t>(lo, INT_MIN),
                                     std::min<std::int64_t>(hi, INT_MAX)));
}

std::uint64_t to_seed(nb::handle value) {
  const nb::object index = as_index(value);
  if (index.is_valid()) {
    const unsigned long long seed = PyLong_AsUnsignedLongLong(index.ptr());
    if (!(seed == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return seed;
    PyErr_Clear();
  }
  throw InvalidArgument("seed must be an int 0..2**64-1, got " + shown(value));
}

Action to_action(nb::handle value) {
  const nb::object index = as_index(value);
  if (!index.is_valid())
    throw InvalidArgument("an action is an integer (int or numpy integer), got " +
                          python_type_name(value) + " " + shown(value));
  int overflow = 0;
  const long long number = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (number == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow != 0 || number < INT32_MIN || number > INT32_MAX)
    throw InvalidArgument("action " + shown(index) + " is out of range (32 bits)");
  return static_cast<Action>(number);
}

}  // namespace rivals::bindings

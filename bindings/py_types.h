// The Python-visible holders of engine objects, shared by the binding files.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include "rivals/core/any_game.h"

namespace rivals::bindings {

struct PyGame {
  std::shared_ptr<AnyGame> impl;
};

struct PyState {
  std::unique_ptr<AnyState> impl;
};

struct PyBot {
  std::unique_ptr<AnyBot> impl;
};

void bind_vector_env(nanobind::module_& m);
void bind_sekigahara(nanobind::module_& m);

}  // namespace rivals::bindings

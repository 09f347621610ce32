// Game.map: the Rheinländer board as a dict (the shipped map or the one the game was made with).
// Other games have no map, so for them the attribute does not exist.
#include <string>

#include "convert.h"
#include "py_types.h"
#include "rivals/core/adapter.h"
#include "rivals/rheinlaender/game.h"

namespace nb = nanobind;

namespace rivals::bindings {

void bind_rheinlaender(nb::module_& m) {
  const nb::object getter = nb::cpp_function(
      [](const PyGame& game) {
        const auto* rules =
            dynamic_cast<const GameAdapter<rheinlaender::Rheinlaender>*>(game.impl.get());
        if (rules == nullptr)
          throw nb::attribute_error(("a " + game.impl->name() + " game has no map").c_str());
        return to_python(rules->rules().map());
      },
      nb::is_method(), nb::sig("def map(self) -> dict[str, typing.Any]"));
  nb::setattr(m.attr("Game"), "map",
              nb::module_::import_("builtins")
                  .attr("property")(getter, nb::none(), nb::none(),
                                    "The Rheinländer map as a dict (Rheinländer games only)."));
}

}  // namespace rivals::bindings

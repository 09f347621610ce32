# find_package(rivals CONFIG) gives the target rivals::engine: the game engine as a static
# library with its headers (#include "rivals/core/registry.h").
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/rivalsTargets.cmake")

# Sourced by scripts/setup.sh and scripts/smoke.sh: where ccache is installed, a new CMake build
# tree compiles through it, with its cache in build/ccache. The engine's objects do not depend on
# the Python they are built for, so the smoke wheels (one build tree per Python) take them from
# the cache the editable build filled instead of compiling the engine again; only the bindings
# are compiled per Python. A CMAKE_CXX_COMPILER_LAUNCHER or CCACHE_DIR of the caller wins;
# RIVALS_CCACHE=0 turns the cache off.
if [ "${RIVALS_CCACHE:-1}" != 0 ] && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] &&
  command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_DIR="${CCACHE_DIR:-$root/build/ccache}"
fi

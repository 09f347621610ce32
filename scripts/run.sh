#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the rivals command line: scripts/run.sh arena rosenkoenig ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" >&2
exec "${RIVALS_VENV:-$root/.venv}/bin/rivals" "$@"

# Sourced by run-demo.sh and run-tests.sh: creates .venv at the repository root and installs
# protogym with its extras and every first-party plugin under plugins/ with its "all" extra,
# editable.
# Usage: source scripts/install.sh [extra ...]   (extras beyond "all", e.g. "test")
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
extras=all
for extra in "$@"; do extras="$extras,$extra"; done
plugin_args=()
for plugin in plugins/*/; do plugin_args+=(-e "${plugin%/}[all]"); done
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
# torch's CPU wheel first: the torch extra's range then accepts it instead of pulling a
# multi-gigabyte CUDA build.
.venv/bin/python -m pip install --quiet --disable-pip-version-check torch==2.13.0
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]" "${plugin_args[@]}"

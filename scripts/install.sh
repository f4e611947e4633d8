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
# The "all" extra and plugins/mujoco both pin mujoco==4.0.0 (its goldens are bit-exact
# within one MuJoCo build).
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]" "${plugin_args[@]}"
# -- Third-party Gymnasium env packages for the interop tests (tests/interop) -------------
# MiniGrid and highway-env require pygame-ce, which would overwrite pygame's files in this
# venv (and draws some frames differently): install them without their dependencies, then
# their other requirements by name (numpy and gymnasium come with the extras above).
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
    "minigrid==3.2.*" "highway-env==1.12.*"
.venv/bin/python -m pip install --quiet --disable-pip-version-check \
    matplotlib pandas farama-notifications
# gymnax 1.0 (protogym.interop.gymnax, tests/interop/test_interop_gymnax*) pins
# gymnasium<1.4, and flax pulls in orbax/tensorstore/optax, none of which gymnax imports:
# install both without their dependencies, then what their imports really need by name.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
    "gymnax==1.0.*" "flax==0.12.*" "seaborn==0.13.*"
.venv/bin/python -m pip install --quiet --disable-pip-version-check \
    six msgpack rich pyyaml absl-py
# -- end of the interop packages ---------------------------------------------------------
# MuJoCo's frames without a display (MUJOCO_GL=egl) need Mesa's EGL and its software OpenGL
# driver; on Debian, install whichever of those packages is missing.
if command -v dpkg-query >/dev/null 2>&1; then
    egl_missing=()
    for package in libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
            || egl_missing+=("$package")
    done
    if [ ${#egl_missing[@]} -gt 0 ]; then
        echo "== installing Debian's ${egl_missing[*]} for headless MuJoCo frames"
        sudo_cmd=()
        [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
        "${sudo_cmd[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
            "${egl_missing[@]}" >/dev/null
    fi
fi

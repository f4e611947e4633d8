# Sourced by run-demo.sh and run-tests.sh: creates .venv at the repository root and installs
# protogym with its extras and every first-party plugin under plugins/ with its "all" extra,
# editable. Each step prints one line (what it installs, how long it took); the installers'
# own output goes to .venv/install.log and is shown only when a step fails.
# Usage: source scripts/install.sh [extra ...]   (extras beyond "all", e.g. "test")
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3

# install_step "what" command...: runs one set-up step quietly and says how it went.
install_step() {
    local what=$1 started=$SECONDS
    shift
    printf '== %s ... ' "$what"
    if "$@" >>"$install_log" 2>&1; then
        printf 'done in %d s\n' $((SECONDS - started))
    else
        printf 'failed; the last lines of %s:\n' "$install_log"
        tail -n 40 "$install_log" >&2
        return 1
    fi
}
pip_install() {
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"
}

if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
install_log=.venv/install.log
: >"$install_log"
extras=all
for extra in "$@"; do extras="$extras,$extra"; done
plugin_args=()
for plugin in plugins/*/; do plugin_args+=(-e "${plugin%/}[all]"); done
install_step "pip itself" pip_install --upgrade pip
# torch's CPU wheel first: the torch extra's range then accepts it instead of pulling a
# multi-gigabyte CUDA build.
install_step "torch 2.13.0 (CPU)" pip_install torch==2.13.0
# The "all" extra and plugins/mujoco both pin mujoco==4.0.0 (its goldens are bit-exact
# within one MuJoCo build).
install_step "protogym[$extras] and the plugins $(cd plugins && echo */ | tr -d /)" \
    pip_install -e ".[$extras]" "${plugin_args[@]}"
# -- Third-party Gymnasium env packages for the interop tests (tests/interop) -------------
# MiniGrid and highway-env require pygame-ce, which would overwrite pygame's files in this
# venv (and draws some frames differently): install them without their dependencies, then
# their other requirements by name (numpy and gymnasium come with the extras above). pip then
# notes highway-env's missing pygame-ce in the log: that is on purpose.
install_step "minigrid and highway-env (without pygame-ce)" \
    pip_install --no-deps "minigrid==3.2.*" "highway-env==1.12.*"
install_step "matplotlib, pandas and farama-notifications for them" pip_install matplotlib pandas farama-notifications
# Tianshou 2.0 pins pandas<3: it goes in without its dependencies (the "tianshou" extra, part
# of "all", installed what it imports).
install_step "tianshou 2.0 (without its pins)" pip_install --no-deps "tianshou==2.0.*"
# gymnax 1.0 (protogym.interop.gymnax, tests/interop/test_interop_gymnax*) pins
# gymnasium<1.4, and flax pulls in orbax/tensorstore/optax, none of which gymnax imports:
# install both without their dependencies, then what their imports really need by name.
install_step "gymnax 1.0 with flax and seaborn (without their pins)" \
    pip_install --no-deps "gymnax==1.0.*" "flax==0.12.*" "seaborn==0.13.*"
install_step "six, msgpack, rich, pyyaml and absl-py for them" \
    pip_install six msgpack rich pyyaml absl-py
# -- end of the interop packages ---------------------------------------------------------
# MuJoCo's frames without a display (MUJOCO_GL=egl) need Mesa's EGL and its software OpenGL
# driver; on Debian, install whichever of those packages is missing.
debian_install() {
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$@"
}
if command -v dpkg-query >/dev/null 2>&1; then
    egl_missing=()
    for package in libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
            || egl_missing+=("$package")
    done
    if [ ${#egl_missing[@]} -gt 0 ]; then
        install_step "Debian's ${egl_missing[*]} for headless MuJoCo frames" \
            debian_install "${egl_missing[@]}"
    fi
fi

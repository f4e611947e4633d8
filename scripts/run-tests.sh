#!/usr/bin/env bash
# Installs everything plus the test tools into .venv, then runs the whole test command:
# ruff, mypy --strict over src/, plugins/ and tests/, and pytest over the core and every
# plugin. pytest exits non-zero (5) when it collects no test.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/install.sh" test
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy NO_MKDOCS_2_WARNING=1
# The docs site's browser check drives Debian's headless Chromium.
if ! command -v chromium >/dev/null 2>&1; then
    install_step "Debian's chromium for the docs site's browser check" debian_install chromium
fi
# The pyright wheel fetches its npm package on first use: fetch it now, during set-up, so
# that no test needs the network.
install_step "pyright's npm package" .venv/bin/pyright --version
echo "== ruff"
.venv/bin/ruff check src plugins tests benchmarks scripts
echo "== mypy --strict"
.venv/bin/mypy --strict src tests scripts/docs_gallery.py scripts/docs_render.py scripts/docs_benchmarks.py
# One run per plugin: each plugin's tests/ folder is a root of its own (conftest.py twice).
for plugin in plugins/*/; do
    .venv/bin/mypy --strict "$plugin"
done
echo "== pytest"
.venv/bin/python -m pytest tests plugins -q -n 2

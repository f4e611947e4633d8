#!/usr/bin/env bash
# Installs everything into .venv, then flies LunarLander-v3 with its heuristic pilot and
# prints each episode's return and length and a summary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"
.venv/bin/protogym run LunarLander-v3 --policy heuristic --episodes 5 --seed 0

#!/usr/bin/env bash
# Installs everything into .venv, then runs a random agent on CartPole-v1 and prints each
# episode's return and length and a summary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"
.venv/bin/protogym run CartPole-v1 --episodes 10 --seed 42

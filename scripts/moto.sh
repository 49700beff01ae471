#!/usr/bin/env bash
# Installs moto's S3-compatible server (PyPI `moto[server]`) once into a virtual environment
# under ~/.cache (AP_MOTO_VENV) and prints the path of its `moto_server`. The tests of the
# bucket store and of two instances start it on 127.0.0.1 (AP_TEST_MOTO_SERVER).
set -euo pipefail
version=5.2.5
venv="${AP_MOTO_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/aktionsportal/moto-$version}"
if [ ! -x "$venv/bin/moto_server" ]; then
  echo "==> moto $version nach $venv installieren" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "moto[server]==$version" >&2
fi
echo "$venv/bin/moto_server"

#!/usr/bin/env bash
# Installs Stoplight's Prism (npm `@stoplight/prism-cli`) once into a folder under ~/.cache
# (AP_PRISM_DIR) and prints the path of its `prism`. The test of the mails through Brevo
# (tests/brevo_prism.rs) starts it on 127.0.0.1 as a validating mock of Brevo's own API
# description (tests/fixtures/brevo-openapi.yaml), so that every call the portal makes is
# checked against Brevo's schema, not only against our fake.
set -euo pipefail
version=5.14.2
dir="${AP_PRISM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aktionsportal/prism-$version}"
if [ ! -x "$dir/node_modules/.bin/prism" ]; then
  echo "==> Prism $version nach $dir installieren" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --silent \
    "@stoplight/prism-cli@$version" >&2
fi
echo "$dir/node_modules/.bin/prism"

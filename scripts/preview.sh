#!/usr/bin/env bash
# Applies a configuration against a local emulator and keeps the emulator
# running, printing the player URL of every collection, so that a catalog's
# pages can be looked at before anything is created on the service.
#
#   scripts/preview.sh [EXAMPLE_DIR] [FIXTURE]     (make preview EXAMPLE=... FIXTURE=...)
#
# EXAMPLE_DIR defaults to examples/guides/catalogs-as-code; FIXTURE to
# EXAMPLE_DIR/fixture.json, else the emulator's demo fixture. Feed files the
# fixture names are read relative to the fixture. The configuration is
# copied to a temporary directory (the repository stays clean); Ctrl-C stops
# the emulator and removes it. Set EMULATOR_ADDR (default 127.0.0.1:0) to
# pin the port, and TF_VARS to pass e.g. "-var feed_version=2".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
terraform_bin=${TERRAFORM:-$(command -v terraform || echo /usr/local/bin/terraform)}
emulator_bin=$repo/bin/flipbook-emulator
example=${1:-examples/guides/catalogs-as-code}
fixture=${2:-$example/fixture.json}

die() {
  printf 'preview: %s\n' "$*" >&2
  exit 1
}

[[ -x $terraform_bin ]] || die "terraform not found (looked on PATH and at /usr/local/bin/terraform); set TERRAFORM=/path/to/terraform"
[[ -x $emulator_bin && -x $repo/bin/terraform-provider-flipbook ]] || die "bin/ has no provider or emulator binary: run 'make build' first (or use 'make preview')"
[[ -d $example ]] || die "no configuration directory $example"
example=$(cd "$example" && pwd)
fixture_args=()
if [[ -f $fixture ]]; then
  fixture_args=(-fixture "$(cd "$(dirname "$fixture")" && pwd)/$(basename "$fixture")")
else
  printf 'preview: no fixture at %s: using the demo fixture\n' "$fixture"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/flipbook-preview.XXXXXX")
# shellcheck source=scripts/emulator.sh
. "$repo/scripts/emulator.sh"
cleanup() {
  emulator_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

emulator_start "$work" "${fixture_args[@]}" -generation-delay 300ms
export FLIPBOOK_BASE_URL=$base_url FLIPBOOK_UPLOAD_URL=$upload_url
root_url=${base_url%/api/v1/}
use_dev_provider "$work" "$repo/bin"
export FLIPBOOK_API_KEY=${FLIPBOOK_API_KEY:-demo-key} FLIPBOOK_API_SECRET=${FLIPBOOK_API_SECRET:-demo-secret}

cp -R "$example" "$work/config"
cd "$work/config"
tf_flags=()
[[ -t 1 ]] || tf_flags=(-no-color)
# Local modules are linked, not downloaded; `terraform init` would also try
# to install the provider, which dev_overrides already provides.
"$terraform_bin" get "${tf_flags[@]}" >/dev/null
# shellcheck disable=SC2086 # TF_VARS holds several arguments
"$terraform_bin" apply "${tf_flags[@]}" -auto-approve -input=false ${TF_VARS:-}

printf '\npreview: the emulator keeps running at %s (Ctrl-C stops it)\n' "$root_url"
printf 'preview: player of each collection:\n'
# GET /_emulator/collections is indented JSON: each collection's hash and
# title sit on lines of their own, four spaces in.
curl -fsS "$root_url/_emulator/collections" | awk -v root="$root_url" '
  /^    "collectionHash": / { split($0, a, "\""); hash = a[4] }
  /^    "title": / { sub(/^    "title": "/, ""); sub(/",?$/, ""); printf "  %-40s %s/_emulator/view/%s\n", $0, root, hash }'
wait "$emulator_pid" || true

#!/usr/bin/env bash
# Applies examples/demo with the real terraform against a local emulator.
#
# `make demo` runs this after `make build` has written bin/terraform-provider-flipbook
# and bin/flipbook-emulator. Everything it creates lives in a temporary
# directory that is removed on exit; nothing is written to $HOME or the repo.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
terraform_bin=${TERRAFORM:-$(command -v terraform || echo /usr/local/bin/terraform)}
emulator_bin=$repo/bin/flipbook-emulator
provider_bin=$repo/bin/terraform-provider-flipbook

die() {
  printf 'demo: %s\n' "$*" >&2
  exit 1
}

[[ -x $terraform_bin ]] || die "terraform not found (looked on PATH and at /usr/local/bin/terraform); install Terraform >= 1.10 or set TERRAFORM=/path/to/terraform"
[[ -x $emulator_bin && -x $provider_bin ]] || die "bin/ has no provider or emulator binary: run 'make build' first (or use 'make demo')"

work=$(mktemp -d "${TMPDIR:-/tmp}/flipbook-demo.XXXXXX")
# shellcheck source=scripts/emulator.sh
. "$repo/scripts/emulator.sh"
cleanup() {
  emulator_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

emulator_start "$work"
printf 'demo: emulator listening, base_url=%s upload_url=%s\n' "$base_url" "$upload_url"
use_dev_provider "$work" "$repo/bin"
export FLIPBOOK_API_KEY=demo-key
export FLIPBOOK_API_SECRET=demo-secret
export FLIPBOOK_BASE_URL=$base_url
export FLIPBOOK_UPLOAD_URL=$upload_url

# Colour codes only for a terminal; CI logs get plain text.
tf_flags=()
[[ -t 1 ]] || tf_flags=(-no-color)

# A copy of the configuration: the repository stays clean and a second run
# starts from an empty state, as the fresh emulator does.
cp -R "$repo/examples/demo" "$work/config"
cd "$work/config"

printf '\ndemo: terraform apply\n'
"$terraform_bin" apply "${tf_flags[@]}" -auto-approve -input=false

printf '\ndemo: terraform plan (must show no changes)\n'
plan_status=0
"$terraform_bin" plan "${tf_flags[@]}" -detailed-exitcode -input=false || plan_status=$?
case $plan_status in
  0) ;;
  2) die "the plan after apply is not empty: the provider does not converge" ;;
  *) die "terraform plan failed (exit $plan_status)" ;;
esac

embed_code=$("$terraform_bin" output -raw embed_code)
printf '\n===== embed code of the demo catalog =====\n%s\n==========================================\n' "$embed_code"
printf 'demo: done; the emulator and %s are removed on exit.\n' "$work"

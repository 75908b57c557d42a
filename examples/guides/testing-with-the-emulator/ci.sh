#!/usr/bin/env bash
# A CI job for a Terraform configuration that uses the flipbook provider:
# plain shell steps that any CI system can run. It starts the emulator with
# this directory's fixture, runs `terraform test`, then applies, checks that
# a second plan is empty (also with faults injected), and destroys.
#
# Needs: terraform (>= 1.7), curl, and the flipbook-emulator binary (build it
# with `go build ./cmd/flipbook-emulator` from the provider's repository, or
# take it from a release). Set SKIP_INIT=1 when the provider is installed by
# dev_overrides rather than from a registry.
set -euo pipefail
cd "$(dirname "$0")"

emulator=${FLIPBOOK_EMULATOR:-flipbook-emulator}
terraform=${TERRAFORM:-terraform}
log=$(mktemp -d)

# 1. Start the emulator on a free port; its first line names its addresses.
"$emulator" -addr 127.0.0.1:0 -fixture fixture.json >"$log/out" 2>"$log/err" &
emulator_pid=$!
trap 'kill "$emulator_pid" 2>/dev/null || true; rm -rf "$log"' EXIT
for _ in $(seq 100); do
  grep -q '^listening ' "$log/out" && break
  sleep 0.1
done
read -r _ base upload < <(grep -m1 '^listening ' "$log/out") || { cat "$log/err"; exit 1; }

# 2. Point the provider at it. The fixture's account holds these keys.
export FLIPBOOK_BASE_URL=${base#base_url=}
export FLIPBOOK_UPLOAD_URL=${upload#upload_url=}
export FLIPBOOK_API_KEY=ci-key
export FLIPBOOK_API_SECRET=ci-secret
control=${FLIPBOOK_BASE_URL%/api/v1/}/_emulator
export TF_IN_AUTOMATION=1

# 3. Test, apply, and prove that the configuration converges.
[[ ${SKIP_INIT:-} == 1 ]] || "$terraform" init -input=false
"$terraform" test -no-color
"$terraform" apply -no-color -input=false -auto-approve
"$terraform" plan -no-color -input=false -detailed-exitcode

# 4. The same plan through a flaky network: a third of the calls meet a
#    502 page, a dropped connection or a garbled answer. The provider retries;
#    the plan must still be empty. The fixture seeds the fault dice, so a run
#    meets the same faults every time.
curl -fsS -X POST "$control/faults" -d '{"rate": 0.3, "kinds": ["http_502", "reset", "garbage"]}' >/dev/null
"$terraform" plan -no-color -input=false -detailed-exitcode
curl -fsS -X POST "$control/faults" -d '{"rate": 0}' >/dev/null

# 5. What the run did, call by call, then clean up.
curl -fsS "$control/requests"
"$terraform" destroy -no-color -input=false -auto-approve

// Package soak holds the provider's soak test: the real Terraform CLI runs
// the provider binary, built from this repository and installed through
// dev_overrides as a user would, against an in-process emulator that meets a
// seeded share of the API calls with faults. It proves the behaviour the
// README's "Troubleshooting" table promises: faults before the service acts
// are ridden out, lost answers are reconciled without doing anything twice,
// and Ctrl-C during a long wait keeps what was created in the state.
//
// It runs with the acceptance tests (TF_ACC=1, `make test`) and needs the
// terraform CLI and the go command; it never downloads either.
package soak

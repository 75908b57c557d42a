// Package store is what the emulated service remembers, and its model:
// accounts (their fixture records, folders and monthly uploads),
// collections and their items, permissions and download packages, and the
// fixture format that seeds them and the state file that keeps them. The
// Store is the only code that reads or changes that state: its fields are
// unexported, its methods take its lock and hand out copies, so the HTTP
// layer (package emulator) cannot reach around it. The spec's pure rules
// live in package engine; the test-only parts (faults, rate limits,
// request counters, notifications) in package harness.
package store

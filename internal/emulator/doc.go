// Package emulator is a spec-complete, in-memory implementation of the
// Flipbook Publishing API for loopback use: the provider's acceptance tests
// start it in-process (Start), the demo and users run it as
// cmd/flipbook-emulator or its image, and other modules reach it through
// the public facade flipbooktest. It validates, limits, fails and answers as
// the spec says, to the code and status text; the pure rules (sections,
// catalogs, folders, permission payloads) live in the engine subpackage. It
// shares no code with the API client: it checks signatures on its own, so
// that each side tests the other.
//
// What the emulator does is described in one place, the repository's
// README: "Using the emulator in your own CI" (flags, fixture, image,
// control endpoints, fault kinds), "The emulator's behaviour, call by call",
// and "Where the spec is silent, the emulator …", the list of every choice
// it makes where the spec is silent. Where the spec states a rule the
// emulator follows its words, even where a stricter rule would look tidier.
// A behaviour changed here is changed there.
//
// # Layers
//
// Four packages, each kept by the compiler to its part:
//
//   - this package, the HTTP layer (api.go dispatches calls, actions.go and
//     upload.go answer them, render.go and player.go draw answers,
//     handler.go and control.go serve the control endpoints), reads
//     requests and writes answers; it holds no state of its own;
//   - package store holds what the service remembers and its model, behind
//     methods that take its lock and hand out copies: its fields are
//     unexported, so no handler can reach around it. The fixture format and
//     the state file's types are there too;
//   - package harness holds what the emulator adds for tests: the fault
//     dice, rate limiters, request counters and notification e-mails;
//   - package engine holds the spec's pure rules.
//
// Reset and ReplaceFixture (reset.go) swap a whole new store and harness in
// under the store's lock.
//
// New keeps the Fixture it is given: do not change it afterwards
// (DemoFixture returns a fresh copy on every call).
package emulator

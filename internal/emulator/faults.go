package emulator

import (
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator/harness"
)

// The fault dice, rate limiters, request counters and notifications are
// package harness's; these are the emulator's Go controls over them.

// FaultSettings are the fault settings of the control API
// (GET and POST /_emulator/faults).
type FaultSettings struct {
	Rate  float64  `json:"rate"`
	Kinds []string `json:"kinds"`
	// Actions limits faults to these actions (an emulator extension); empty
	// means every action.
	Actions []string `json:"actions,omitempty"`
}

// SetFaults makes a share rate (0..1) of API calls meet one of kinds;
// rate 0 turns faults off. Control endpoints never meet faults.
func (e *Emulator) SetFaults(rate float64, kinds []string) error {
	return e.SetFaultsOn(nil, rate, kinds)
}

// SetFaultsOn is SetFaults limited to the calls of actions (an emulator
// extension, for tests that fault one operation and read freely).
func (e *Emulator) SetFaultsOn(actions []string, rate float64, kinds []string) error {
	if err := harness.CheckFaults(rate, kinds); err != nil {
		return err
	}
	e.harness.SetFaults(harness.Faults{Rate: rate, Kinds: kinds, Actions: actions})
	return nil
}

// Faults are the fault settings now.
func (e *Emulator) Faults() FaultSettings {
	f := e.harness.Faults()
	return FaultSettings{Rate: f.Rate, Kinds: f.Kinds, Actions: f.Actions}
}

// takeRate spends one request of the key's budget: 31 or 32 when it is
// spent (Limits.RequestsPerSecond and RequestsPerMinute of the fixture; the
// spec gives no numbers), 0 otherwise.
func (e *Emulator) takeRate(key string) int {
	lim := e.w().fx.Limits
	if lim.RequestsPerSecond == 0 && lim.RequestsPerMinute == 0 {
		return 0
	}
	return e.harness.TakeRate(key, e.now(), lim.RequestsPerSecond, lim.RequestsPerMinute)
}

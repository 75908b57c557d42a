// Package specrules holds the table of inputs the API spec allows and
// forbids, one pair per rule, that the provider's and the emulator's test
// suites both check. It is test data with its loader, not a rule: each side
// enforces the spec with code of its own.
package specrules

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
)

//go:embed spec_input_rules.json
var table []byte

// Rule is one entry of the table (see its "about").
type Rule struct {
	ID        string         `json:"id"`
	Spec      string         `json:"spec"`
	Action    string         `json:"action"`
	Allowed   map[string]any `json:"allowed"`
	Forbidden map[string]any `json:"forbidden"`
	Code      int            `json:"code"`
	// Errors are the service's messages for the forbidden input.
	Errors []string `json:"errors"`

	// The provider's side: "none" when its schema cannot express the input
	// (ProviderNote says why); the attribute and message a plan fails with.
	Provider      string `json:"provider"`
	ProviderNote  string `json:"provider_note"`
	Attribute     string `json:"attribute"`
	ProviderError string `json:"provider_error"`
	Clean         bool   `json:"clean"`
}

// Load decodes the table, numbers kept as json.Number.
func Load() ([]Rule, error) {
	var t struct{ Rules []Rule }
	dec := json.NewDecoder(bytes.NewReader(table))
	dec.UseNumber()
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	if len(t.Rules) == 0 {
		return nil, errors.New("no rules in the table")
	}
	return t.Rules, nil
}

package harness

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"time"
)

// Fault kinds, as the README's "Fault kinds" lists them; permissions_failure
// is the emulator's way to make the permissions service fail (code 50).
const (
	FaultRateLimit          = "rate_limit"
	FaultHTTP502            = "http_502"
	FaultReset              = "reset"
	FaultSlow               = "slow"
	FaultGarbage            = "garbage"
	FaultResetAfter         = "reset_after"
	FaultGenerationFailed   = "generation_failed"
	FaultConversionFailed   = "conversion_failed"
	FaultPackageFailed      = "package_failed"
	FaultMaintenance        = "maintenance"
	FaultPermissionsFailure = "permissions_failure"
)

// faultKinds are the kinds CheckFaults accepts.
var faultKinds = map[string]bool{
	FaultRateLimit:          true,
	FaultHTTP502:            true,
	FaultReset:              true,
	FaultSlow:               true,
	FaultGarbage:            true,
	FaultResetAfter:         true,
	FaultGenerationFailed:   true,
	FaultConversionFailed:   true,
	FaultPackageFailed:      true,
	FaultMaintenance:        true,
	FaultPermissionsFailure: true,
}

type faultConfig struct {
	rate  float64
	kinds []string
	slow  time.Duration
	seed  uint64
	seen  map[uint64]uint64 // calls so far per fault key (see faultKey)
	// actions limits faults to these actions; empty means every action.
	actions []string
}

// CheckFaults says whether rate (0..1) and kinds are fault settings the
// emulator takes.
func CheckFaults(rate float64, kinds []string) error {
	if rate < 0 || rate > 1 {
		return fmt.Errorf("rate must be between 0 and 1, got %v", rate)
	}
	for _, k := range kinds {
		if !faultKinds[k] {
			return fmt.Errorf("unknown fault kind %q", k)
		}
	}
	if rate > 0 && len(kinds) == 0 {
		return errors.New("a rate above 0 needs at least one kind")
	}
	return nil
}

// applies reports whether a fault kind can hit a call of action: the
// generation, conversion and package faults only hit the calls that start
// those jobs, and the permissions fault only the permissions actions; the
// others hit any call.
func applies(kind, action string) bool {
	switch kind {
	case FaultGenerationFailed:
		return action == "collection.createFromTemplate" || action == "collection.createCatalog"
	case FaultConversionFailed:
		return action == "flipbook.add"
	case FaultPackageFailed:
		return action == "collection.downloadHTML"
	case FaultPermissionsFailure:
		return action == "collection.getPermissions" || action == "collection.setPermissions"
	}
	return true
}

// draw rolls the dice for one API call: with probability rate one of
// the kinds that apply to the action, chosen uniformly; "" for none.
//
// The dice are keyed, not sequential: the fate of a call depends on the
// seed, the action, its parameters (all but the signature and the
// collection and flipbook hashes, which are random) and how many calls with
// that key came before. So the nth createCatalog of a given catalog meets
// the same fault in every run with the same seed, however concurrent
// clients interleave their calls.
func (f *faultConfig) draw(action string, params map[string]string) string {
	if f.rate <= 0 {
		return ""
	}
	if len(f.actions) > 0 && !slices.Contains(f.actions, action) {
		return ""
	}
	var kinds []string
	for _, k := range f.kinds {
		if applies(k, action) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	key := faultKey(f.seed, action, params)
	if f.seen == nil {
		f.seen = map[uint64]uint64{}
	}
	n := f.seen[key]
	f.seen[key] = n + 1
	r := mix(key ^ mix(n+1))
	if float64(r>>11)/(1<<53) >= f.rate {
		return ""
	}
	return kinds[mix(r)%uint64(len(kinds))]
}

// faultKey hashes what identifies a call for the fault dice.
func faultKey(seed uint64, action string, params map[string]string) uint64 {
	keys := make([]string, 0, len(params))
	for k := range params {
		switch k {
		case "signature", "collectionHash", "flipbookHash":
		default:
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(action))
	for _, k := range keys {
		h.Write([]byte{0})
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(params[k]))
	}
	return h.Sum64()
}

// mix is SplitMix64's finaliser: a well-spread 64-bit value from any input.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

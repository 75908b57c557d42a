package engine

import (
	"errors"
	"strings"
	"testing"
)

func nested(depth int, inner string) string {
	return strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
}

// The depth limit counts arrays and objects: 64 are read, 65 are refused.
func TestDecodeJSONDepthLimit(t *testing.T) {
	if _, err := decodeJSON(nested(MaxJSONDepth, "1"), "sections"); err != nil {
		t.Fatalf("%d levels refused: %v", MaxJSONDepth, err)
	}
	_, err := decodeJSON(nested(MaxJSONDepth+1, "1"), "sections")
	var limit *limitExceeded
	if !errors.As(err, &limit) || limit.Error() != "sections: is nested more than 64 arrays and objects deep; the emulator reads at most 64" {
		t.Fatalf("%d levels: %v", MaxJSONDepth+1, err)
	}
	// Objects count as arrays do.
	deepObj := strings.Repeat(`{"a":`, MaxJSONDepth+1) + "1" + strings.Repeat("}", MaxJSONDepth+1)
	if _, err := decodeJSON(deepObj, "permissions"); !errors.As(err, &limit) || limit.path != "permissions" {
		t.Fatalf("deep objects: %v", err)
	}
}

// The size limit is checked before any decoding.
func TestDecodeJSONSizeLimit(t *testing.T) {
	atLimit := "[" + strings.Repeat(" ", MaxJSONBytes-2) + "]"
	if _, err := decodeJSON(atLimit, "sections"); err != nil {
		t.Fatalf("%d bytes refused: %v", len(atLimit), err)
	}
	var limit *limitExceeded
	if _, err := decodeJSON(atLimit+" ", "sections"); !errors.As(err, &limit) {
		t.Fatalf("%d bytes: %v", len(atLimit)+1, err)
	}
}

// Paths are spelled out only for an error, and then in full.
func TestDecodeJSONDuplicatePath(t *testing.T) {
	_, err := decodeJSON(`[{"a":[0,{"b":1,"b":2}]}]`, "sections")
	var dup *duplicateField
	if !errors.As(err, &dup) || dup.path != "sections[0].a[1].b" {
		t.Fatalf("got %v", err)
	}
}

// A request of 200,000 nested arrays (400 KB) is refused at the 65th level;
// compare with BenchmarkDecodeJSONFlat for a value read to its end.
func BenchmarkDecodeJSONNested400KB(b *testing.B) {
	raw := nested(200_000, "")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeJSON(raw, "sections"); err == nil {
			b.Fatal("accepted")
		}
	}
}

// A flat array at the size limit, read to its end: the cost of the largest
// value the emulator reads.
func BenchmarkDecodeJSONFlat1MiB(b *testing.B) {
	raw := "[" + strings.Repeat("0,", MaxJSONBytes/2-2) + "0]"
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeJSON(raw, "sections"); err != nil {
			b.Fatal(err)
		}
	}
}

// Past MaxErrors, data.errors lists the first ones and then how many more
// there were.
func TestErrorsCapped(t *testing.T) {
	// 150 entries that are not objects, and no static section: 151 errors.
	sections := "[" + strings.Repeat("1,", 149) + "1]"
	_, inv := TemplateSections(sections, newLib(nil))
	if inv == nil || len(inv.Errors) != MaxErrors+1 ||
		inv.Errors[0] != "sections[0]: must be an object, got a number" ||
		inv.Errors[MaxErrors-1] != "sections[99]: must be an object, got a number" ||
		inv.Errors[MaxErrors] != "sections: 51 more errors not listed; the emulator lists at most 100" {
		t.Fatalf("got %v", inv)
	}
	entries := make([]string, 150)
	for i := range entries {
		entries[i] = `{"type":"otp","email":"nobody"}`
	}
	_, inv = ParsePermissions(`{"permissions":[` + strings.Join(entries, ",") + `]}`)
	if inv == nil || len(inv.Errors) != MaxErrors+1 || inv.Errors[0] != "Invalid email at index 0" ||
		inv.Errors[MaxErrors] != "permissions: 50 more errors not listed; the emulator lists at most 100" {
		t.Fatalf("got %v", inv)
	}
	// Exactly MaxErrors errors are all listed, with no count.
	_, inv = CatalogSections("["+strings.Repeat("1,", 99)+"1]", newLib(nil))
	if inv == nil || len(inv.Errors) != MaxErrors {
		t.Fatalf("got %v", inv)
	}
}

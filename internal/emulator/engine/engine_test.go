package engine

import (
	"reflect"
	"testing"
)

func TestInvalidError(t *testing.T) {
	e := &Invalid{Message: ValidationFailed, Errors: []string{"folder: a", "sections: b"}}
	if got, want := e.Error(), "Validation failed: folder: a; sections: b"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := (&Invalid{Message: "m"}).Error(); got != "m" {
		t.Errorf("Error() without details = %q, want %q", got, "m")
	}
}

func TestJoin(t *testing.T) {
	if Join(nil, nil) != nil {
		t.Error("Join of nothing must be nil")
	}
	folder := ValidateFolder("a//b")
	_, sections := TemplateSections(`[{"sectionType":"blank"}]`, templateLib)
	got := Join(nil, folder, sections)
	want := &Invalid{Message: ValidationFailed, Errors: []string{
		`folder: level 2 is empty ("//" is not allowed)`,
		"sections: must include at least one static section",
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Join = %+v, want %+v", got, want)
	}
	if len(folder.Errors) != 1 {
		t.Errorf("Join changed its input: %q", folder.Errors)
	}
}

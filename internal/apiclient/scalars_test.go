package apiclient

import (
	"encoding/json"
	"testing"
)

func TestTolerantScalars(t *testing.T) {
	tests := []struct {
		in string
		i  Int
		b  Bool
	}{
		{`1`, NewInt(1), NewBool(true)},
		{`"1"`, NewInt(1), NewBool(true)},
		{`1.0`, NewInt(1), NewBool(true)},
		{`"1.0"`, NewInt(1), NewBool(true)},
		{`true`, NewInt(1), NewBool(true)},
		{`"true"`, NewInt(1), NewBool(true)},
		{`"TRUE"`, NewInt(1), NewBool(true)},
		{`false`, NewInt(0), NewBool(false)},
		{`"false"`, NewInt(0), NewBool(false)},
		{`0`, NewInt(0), NewBool(false)},
		{`"0"`, NewInt(0), NewBool(false)},
		{`""`, Int{}, Bool{}},
		{`null`, Int{}, Bool{}},
		{`" 42 "`, NewInt(42), NewBool(true)},
		{`-7`, NewInt(-7), NewBool(true)},
		{`12.6`, NewInt(13), NewBool(true)},
		{`"9007199254740993"`, NewInt(9007199254740993), NewBool(true)},
		{`1e3`, NewInt(1000), NewBool(true)},
		{`"yes"`, Int{}, NewBool(true)},
		{`"off"`, Int{}, NewBool(false)},
		{`"abc"`, Int{}, Bool{}},
		{`{}`, Int{}, Bool{}},
		{`[1]`, Int{}, Bool{}},
		{`"NaN"`, Int{}, Bool{}},
		{`1e300`, Int{}, NewBool(true)},
	}
	for _, tt := range tests {
		var i Int
		var b Bool
		if err := json.Unmarshal([]byte(tt.in), &i); err != nil {
			t.Errorf("Int(%s): %v", tt.in, err)
		}
		if err := json.Unmarshal([]byte(tt.in), &b); err != nil {
			t.Errorf("Bool(%s): %v", tt.in, err)
		}
		if i != tt.i {
			t.Errorf("Int(%s) = %+v, want %+v", tt.in, i, tt.i)
		}
		if b != tt.b {
			t.Errorf("Bool(%s) = %+v, want %+v", tt.in, b, tt.b)
		}
	}
}

func TestScalarsInsideStructsAndAccessors(t *testing.T) {
	var s Settings
	err := json.Unmarshal([]byte(`{"collectionWidth":"800","collectionHeight":600.0,"enableDownload":"1",
		"enableSearch":0,"autoFlip":"false","autoFlipDelay":"","transparentBackground":null}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	if s.CollectionWidth.Int64() != 800 || s.CollectionHeight.Int64() != 600 {
		t.Errorf("width/height = %v/%v", s.CollectionWidth, s.CollectionHeight)
	}
	if !s.EnableDownload.Bool() || s.EnableSearch.Bool() || !s.EnableSearch.Valid || s.AutoFlip.Bool() {
		t.Errorf("booleans = %+v %+v %+v", s.EnableDownload, s.EnableSearch, s.AutoFlip)
	}
	if s.AutoFlipDelay.Valid || s.TransparentBackground.Valid || s.EnableFullScreen.Valid {
		t.Errorf("absent values should not be Valid: %+v %+v %+v", s.AutoFlipDelay, s.TransparentBackground, s.EnableFullScreen)
	}
	out, err := json.Marshal(struct {
		A, B Int
		C, D Bool
	}{NewInt(5), Int{}, NewBool(true), Bool{}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"A":5,"B":null,"C":true,"D":null}` {
		t.Errorf("marshal = %s", out)
	}
}

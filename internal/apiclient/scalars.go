package apiclient

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Int is a number that may arrive as 1, "1", 1.0, "1.0", true, "", or null.
// Decoding never fails: a value that is not a number (an object, "abc")
// leaves Valid false, so one odd field cannot make a whole answer
// unreadable. A fractional number is rounded to the nearest integer.
type Int struct {
	Value int64
	Valid bool
}

// Bool is a boolean that may arrive as true, "true", 1, "1", 1.0, "", or
// null. Like Int it never fails to decode: an unrecognised value leaves
// Valid false.
type Bool struct {
	Value bool
	Valid bool
}

// NewInt makes a valid Int.
func NewInt(v int64) Int { return Int{Value: v, Valid: true} }

// NewBool makes a valid Bool.
func NewBool(v bool) Bool { return Bool{Value: v, Valid: true} }

// Int64 returns the value, 0 when absent.
func (i Int) Int64() int64 { return i.Value }

// Bool returns the value, false when absent.
func (b Bool) Bool() bool { return b.Value }

// MarshalJSON writes a number, or null when not Valid.
func (i Int) MarshalJSON() ([]byte, error) {
	if !i.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, i.Value, 10), nil
}

// MarshalJSON writes true/false, or null when not Valid.
func (b Bool) MarshalJSON() ([]byte, error) {
	if !b.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendBool(nil, b.Value), nil
}

// UnmarshalJSON accepts numbers, numeric strings, booleans, "" and null.
func (i *Int) UnmarshalJSON(data []byte) error {
	*i = Int{}
	if f, ok := scalarNumber(data); ok && !math.IsNaN(f) && !math.IsInf(f, 0) &&
		f >= -(1<<63) && f < (1<<63) {
		// Exact integers are parsed again so that large values keep every digit.
		if n, err := strconv.ParseInt(scalarText(data), 10, 64); err == nil {
			*i = NewInt(n)
		} else {
			*i = NewInt(int64(math.Round(f)))
		}
	}
	return nil
}

// UnmarshalJSON accepts booleans, numbers (non-zero is true), their string
// forms, "yes"/"no", "on"/"off", "" and null.
func (b *Bool) UnmarshalJSON(data []byte) error {
	*b = Bool{}
	switch strings.ToLower(scalarText(data)) {
	case "true", "yes", "on":
		*b = NewBool(true)
		return nil
	case "false", "no", "off":
		*b = NewBool(false)
		return nil
	}
	if f, ok := scalarNumber(data); ok && !math.IsNaN(f) {
		*b = NewBool(f != 0)
	}
	return nil
}

// scalarText is the text of a JSON scalar: a string's content (trimmed) or
// a literal's source; "" for null, objects, arrays and malformed input.
func scalarText(data []byte) string {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] == '{' || data[0] == '[' || string(data) == "null" {
		return ""
	}
	if data[0] == '"' {
		var s string
		if json.Unmarshal(data, &s) != nil {
			return ""
		}
		return strings.TrimSpace(s)
	}
	return string(data)
}

// scalarNumber reads a JSON scalar as a number; true and false count as 1
// and 0.
func scalarNumber(data []byte) (float64, bool) {
	t := scalarText(data)
	switch strings.ToLower(t) {
	case "":
		return 0, false
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Limits of the JSON parameters (sections, permissions). The spec sets
// neither; both are listed in the README ("Where the spec is silent, the
// emulator …") and are far above what any valid request needs (sections
// nest seven levels deep at most).
const (
	// MaxJSONDepth is how many arrays and objects may enclose one another.
	MaxJSONDepth = 64
	// MaxJSONBytes is the largest JSON parameter read.
	MaxJSONBytes = 1 << 20
)

// decodeJSON decodes one JSON value, keeping numbers as json.Number so that
// integers and decimals can be told apart, and rejecting trailing data and
// objects that repeat a field (which encoding/json would resolve silently,
// last one winning). root names the value in an error's path.
//
// One reader does it, in a single pass, in time and memory linear in
// len(raw): the input is bounded by MaxJSONBytes, nesting by MaxJSONDepth,
// strings and numbers are taken from raw without copying where they can be,
// and field paths are only spelled out for an error. It stops at the first
// problem in document order. For a syntax error it borrows the wording of
// encoding/json (syntaxError), which reads nothing past that error.
func decodeJSON(raw, root string) (any, error) {
	if len(raw) > MaxJSONBytes {
		return nil, &limitExceeded{path: root, what: fmt.Sprintf("is %d bytes long; the emulator reads at most %d", len(raw), MaxJSONBytes)}
	}
	r := jsonReader{s: raw, root: root}
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	r.space()
	if r.i != len(r.s) {
		return nil, errTrailingData
	}
	return v, nil
}

var errTrailingData = errors.New("unexpected data after the JSON value")

// syntaxError words the syntax error of raw as encoding/json's decoder
// does ("unexpected EOF", "invalid character ']' looking for beginning of
// value"); raw's first value is well formed when it finds none, so what
// follows it is the fault.
func syntaxError(raw string) error {
	dec := json.NewDecoder(strings.NewReader(raw))
	var skip json.RawMessage
	err := dec.Decode(&skip)
	switch {
	case err == io.EOF:
		return io.ErrUnexpectedEOF
	case err != nil:
		return err
	}
	return errTrailingData
}

// duplicateField reports an object field given more than once.
type duplicateField struct{ path string }

func (d *duplicateField) Error() string { return d.path + ": duplicate field" }

// limitExceeded reports a JSON parameter past one of the emulator's limits.
type limitExceeded struct{ path, what string }

func (l *limitExceeded) Error() string { return l.path + ": " + l.what }

// pathSeg is one step of the path to a value: a field name, or an array
// index when isIdx.
type pathSeg struct {
	name  string
	index int
	isIdx bool
}

// jsonReader is decodeJSON's reader: objects come out as map[string]any,
// arrays as []any, numbers as json.Number, then strings, booleans and nil.
type jsonReader struct {
	s    string
	i    int
	root string
	// path leads from the root to the value being read; a stack, so that
	// reading allocates nothing for it and the string is built only when
	// an error names it.
	path []pathSeg
}

// pathString spells out the path of the value being read.
func (r *jsonReader) pathString() string {
	p := r.root
	for _, s := range r.path {
		if s.isIdx {
			p = index(p, s.index)
		} else {
			p = field(p, s.name)
		}
	}
	return p
}

// fail is the error of the reader stopping at r.i: a syntax error, worded
// by encoding/json.
func (r *jsonReader) fail() error { return syntaxError(r.s) }

func (r *jsonReader) space() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips white space and reports the next byte, 0 at the end.
func (r *jsonReader) next() byte {
	r.space()
	return r.peek()
}

func (r *jsonReader) peek() byte {
	if r.i >= len(r.s) {
		return 0
	}
	return r.s[r.i]
}

// value reads the value at path; depth counts the arrays and objects
// around it.
func (r *jsonReader) value(depth int) (any, error) {
	switch c := r.next(); {
	case c == '{' || c == '[':
		if depth >= MaxJSONDepth {
			return nil, &limitExceeded{path: r.root, what: fmt.Sprintf("is nested more than %d arrays and objects deep; the emulator reads at most %d", MaxJSONDepth, MaxJSONDepth)}
		}
		if c == '{' {
			return r.object(depth)
		}
		return r.array(depth)
	case c == '"':
		s, ok := r.str()
		if !ok {
			return nil, r.fail()
		}
		return s, nil
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	return nil, r.fail()
}

func (r *jsonReader) object(depth int) (any, error) {
	r.i++ // {
	m := map[string]any{}
	if r.next() == '}' {
		r.i++
		return m, nil
	}
	for {
		if r.next() != '"' {
			return nil, r.fail()
		}
		k, ok := r.str()
		if !ok {
			return nil, r.fail()
		}
		r.path = append(r.path, pathSeg{name: k})
		if _, dup := m[k]; dup {
			return nil, &duplicateField{path: r.pathString()}
		}
		if r.next() != ':' {
			return nil, r.fail()
		}
		r.i++
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.path = r.path[:len(r.path)-1]
		m[k] = v
		switch r.next() {
		case ',':
			r.i++
		case '}':
			r.i++
			return m, nil
		default:
			return nil, r.fail()
		}
	}
}

func (r *jsonReader) array(depth int) (any, error) {
	r.i++ // [
	a := []any{}
	if r.next() == ']' {
		r.i++
		return a, nil
	}
	for {
		r.path = append(r.path, pathSeg{index: len(a), isIdx: true})
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.path = r.path[:len(r.path)-1]
		a = append(a, v)
		switch r.next() {
		case ',':
			r.i++
		case ']':
			r.i++
			return a, nil
		default:
			return nil, r.fail()
		}
	}
}

// str reads a string. Plain ASCII without escapes is a slice of raw; any
// other string is decoded by encoding/json, so that escapes, surrogates and
// invalid UTF-8 come out exactly as encoding/json gives them.
func (r *jsonReader) str() (string, bool) {
	start := r.i
	plain := true
	for j := start + 1; j < len(r.s); j++ {
		switch c := r.s[j]; {
		case c == '"':
			r.i = j + 1
			if plain {
				return r.s[start+1 : j], true
			}
			var out string
			if err := json.Unmarshal([]byte(r.s[start:j+1]), &out); err != nil {
				return "", false
			}
			return out, true
		case c == '\\':
			plain = false
			j++ // the escaped byte, which may be a quote
		case c < 0x20:
			return "", false
		case c >= 0x80:
			plain = false
		}
	}
	return "", false
}

func (r *jsonReader) literal(word string) error {
	if len(r.s)-r.i < len(word) || r.s[r.i:r.i+len(word)] != word {
		return r.fail()
	}
	r.i += len(word)
	return nil
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a
// json.Number.
func (r *jsonReader) number() (any, error) {
	start := r.i
	if r.peek() == '-' {
		r.i++
	}
	switch c := r.peek(); {
	case c == '0':
		r.i++
	case c >= '1' && c <= '9':
		r.digits()
	default:
		return nil, r.fail()
	}
	if r.peek() == '.' {
		r.i++
		if !r.digits() {
			return nil, r.fail()
		}
	}
	if c := r.peek(); c == 'e' || c == 'E' {
		r.i++
		if c := r.peek(); c == '+' || c == '-' {
			r.i++
		}
		if !r.digits() {
			return nil, r.fail()
		}
	}
	return json.Number(r.s[start:r.i]), nil
}

// digits reads one or more decimal digits.
func (r *jsonReader) digits() bool {
	start := r.i
	for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// checker collects validation errors, each prefixed by its field path; past
// MaxErrors it only counts them.
type checker struct {
	root  string // the parameter, which names the count of errors left out
	errs  []string
	found int // errors found, listed or not
}

func (c *checker) add(path, format string, args ...any) {
	c.found++
	if len(c.errs) < MaxErrors {
		c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
	}
}

func (c *checker) invalid() *Invalid {
	if c.found == 0 {
		return nil
	}
	return &Invalid{Message: ValidationFailed, Errors: capErrors(c.root, c.errs, c.found)}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func field(path, name string) string { return path + "." + name }

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// object returns v as an object, or reports that it is not one.
func (c *checker) object(path string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object, got %s", jsonType(v))
	}
	return m, ok
}

// unknownFields reports every field of m not in allowed, sorted by name.
func (c *checker) unknownFields(path string, m map[string]any, allowed ...string) {
	var extra []string
	for k := range m {
		known := false
		for _, a := range allowed {
			if k == a {
				known = true
				break
			}
		}
		if !known {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		c.add(field(path, k), "unknown field")
	}
}

// lookup returns a field's value; a JSON null counts as absent.
func lookup(m map[string]any, name string) (any, bool) {
	v, ok := m[name]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

// requiredString reports a missing, non-string or empty field.
func (c *checker) requiredString(path string, m map[string]any, name string) (string, bool) {
	p := field(path, name)
	v, ok := lookup(m, name)
	if !ok {
		c.add(p, "is required")
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.add(p, "must be a string, got %s", jsonType(v))
		return "", false
	}
	if s == "" {
		c.add(p, "must not be empty")
		return "", false
	}
	return s, true
}

// optionalBool returns def when the field is absent.
func (c *checker) optionalBool(path string, m map[string]any, name string, def bool) bool {
	v, ok := lookup(m, name)
	if !ok {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		c.add(field(path, name), "must be a boolean, got %s", jsonType(v))
		return def
	}
	return b
}

// array returns v as an array, or reports that it is not one.
func (c *checker) array(path string, v any) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		c.add(path, "must be an array, got %s", jsonType(v))
	}
	return a, ok
}

// integer returns v as an int when it is a JSON number without fraction or
// exponent that fits an int.
func integer(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(n.String())
	return i, err == nil
}

// objects calls fn for each entry of the array v, with the entry's path;
// it reports v if it is not an array and each entry that is not an object
// (fn is not called for those). It returns the array's length, and false
// when v is not an array.
func (c *checker) objects(path string, v any, fn func(i int, epath string, m map[string]any)) (int, bool) {
	list, ok := c.array(path, v)
	if !ok {
		return 0, false
	}
	for i, e := range list {
		epath := index(path, i)
		if m, ok := c.object(epath, e); ok {
			fn(i, epath, m)
		}
	}
	return len(list), true
}

// requiredObjects is objects for the field name of m, which must hold a
// non-empty array: missing or empty, it is reported once with missing.
func (c *checker) requiredObjects(path string, m map[string]any, name, missing string, fn func(i int, epath string, m map[string]any)) {
	fpath := field(path, name)
	v, ok := lookup(m, name)
	if !ok {
		c.add(fpath, "%s", missing)
		return
	}
	if n, ok := c.objects(fpath, v, fn); ok && n == 0 {
		c.add(fpath, "%s", missing)
	}
}

// stringList returns v's string entries, reporting v if it is not an array
// and each entry that is not a string.
func (c *checker) stringList(path string, v any) []string {
	a, ok := c.array(path, v)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			c.add(index(path, i), "must be a string, got %s", jsonType(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

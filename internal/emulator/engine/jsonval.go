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
// last one winning). root names the value in a duplicateField's path.
//
// It runs in time and memory linear in len(raw): the input is bounded by
// MaxJSONBytes, nesting by MaxJSONDepth, and field paths are only spelled
// out for an error. A valid document is read by scanJSON in one pass; any
// other is read again by encoding/json's streaming decoder, whose errors
// are the ones reported.
func decodeJSON(raw, root string) (any, error) {
	if len(raw) > MaxJSONBytes {
		return nil, &limitExceeded{path: root, what: fmt.Sprintf("is %d bytes long; the emulator reads at most %d", len(raw), MaxJSONBytes)}
	}
	if v, ok := scanJSON(raw); ok {
		return v, nil
	}
	return decodeJSONStream(raw, root)
}

// decodeJSONStream is decodeJSON read token by token with encoding/json.
func decodeJSONStream(raw, root string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	v, err := readValue(dec, &jsonPath{name: root}, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// duplicateField reports an object field given more than once.
type duplicateField struct{ path string }

func (d *duplicateField) Error() string { return d.path + ": duplicate field" }

// limitExceeded reports a JSON parameter past one of the emulator's limits.
type limitExceeded struct{ path, what string }

func (l *limitExceeded) Error() string { return l.path + ": " + l.what }

// jsonPath is where a value sits in the document, kept as a chain so that
// the string (which grows with depth and key lengths) is built only when an
// error names it.
type jsonPath struct {
	parent *jsonPath
	name   string // field name, or the root's name
	index  int    // array index, when isIndex
	isIdx  bool
}

func (p *jsonPath) String() string {
	if p.parent == nil {
		return p.name
	}
	if p.isIdx {
		return index(p.parent.String(), p.index)
	}
	return field(p.parent.String(), p.name)
}

// token reads the next token of a value that has not ended yet.
func token(dec *json.Decoder) (json.Token, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return tok, err
}

// readValue reads the value at path; depth counts the arrays and objects
// around it.
func readValue(dec *json.Decoder, path *jsonPath, depth int) (any, error) {
	tok, err := token(dec)
	if err != nil {
		return nil, err
	}
	if tok == json.Delim('{') || tok == json.Delim('[') {
		if depth >= MaxJSONDepth {
			root := path
			for root.parent != nil {
				root = root.parent
			}
			return nil, &limitExceeded{path: root.name, what: fmt.Sprintf("is nested more than %d arrays and objects deep; the emulator reads at most %d", MaxJSONDepth, MaxJSONDepth)}
		}
	}
	switch tok {
	case json.Delim('{'):
		m := map[string]any{}
		for dec.More() {
			kt, err := token(dec)
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string) // the decoder only yields string keys here
			kpath := &jsonPath{parent: path, name: key}
			if _, dup := m[key]; dup {
				return nil, &duplicateField{path: kpath.String()}
			}
			if m[key], err = readValue(dec, kpath, depth+1); err != nil {
				return nil, err
			}
		}
		_, err = token(dec)
		return m, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := readValue(dec, &jsonPath{parent: path, index: len(a), isIdx: true}, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err = token(dec)
		return a, err
	}
	return tok, nil
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

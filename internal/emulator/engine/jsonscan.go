package engine

import "encoding/json"

// scanJSON is decodeJSON's fast path: a single pass over raw that builds the
// same values as the streaming reader (objects, arrays, strings,
// json.Number, booleans, nil) with one allocation per value at most,
// strings and numbers taken from raw without copying. It accepts exactly
// the documents the streaming reader accepts; for anything else (a syntax
// error, a repeated field, nesting past MaxJSONDepth) it reports false and
// leaves the wording of the error to the streaming reader, which is the
// spec of every message.
func scanJSON(raw string) (any, bool) {
	p := jsonScanner{s: raw}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.s)
}

type jsonScanner struct {
	s string
	i int
}

func (p *jsonScanner) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and reports the next byte, 0 at the end.
func (p *jsonScanner) next() byte {
	p.space()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// value reads one value; depth counts the arrays and objects around it.
func (p *jsonScanner) value(depth int) (any, bool) {
	switch c := p.next(); {
	case c == '{':
		if depth >= MaxJSONDepth {
			return nil, false
		}
		return p.object(depth)
	case c == '[':
		if depth >= MaxJSONDepth {
			return nil, false
		}
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *jsonScanner) object(depth int) (any, bool) {
	p.i++ // {
	m := map[string]any{}
	if p.next() == '}' {
		p.i++
		return m, true
	}
	for {
		if p.next() != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		if _, dup := m[k]; dup {
			return nil, false
		}
		if p.next() != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
		switch p.next() {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *jsonScanner) array(depth int) (any, bool) {
	p.i++ // [
	a := []any{}
	if p.next() == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		switch p.next() {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// str reads a string. Plain ASCII without escapes is a slice of raw; any
// other string is decoded by encoding/json, so that escapes, surrogates and
// invalid UTF-8 come out exactly as the streaming reader gives them.
func (p *jsonScanner) str() (string, bool) {
	start := p.i
	plain := true
	for j := start + 1; j < len(p.s); j++ {
		switch c := p.s[j]; {
		case c == '"':
			p.i = j + 1
			if plain {
				return p.s[start+1 : j], true
			}
			var out string
			if err := json.Unmarshal([]byte(p.s[start:j+1]), &out); err != nil {
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

func (p *jsonScanner) literal(word string) bool {
	if len(p.s)-p.i < len(word) || p.s[p.i:p.i+len(word)] != word {
		return false
	}
	p.i += len(word)
	return true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a
// json.Number.
func (p *jsonScanner) number() (any, bool) {
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		return nil, false
	}
	if p.peek() == '.' {
		p.i++
		if !p.digits() {
			return nil, false
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if !p.digits() {
			return nil, false
		}
	}
	return json.Number(p.s[start:p.i]), true
}

func (p *jsonScanner) peek() byte {
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// digits reads one or more decimal digits.
func (p *jsonScanner) digits() bool {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

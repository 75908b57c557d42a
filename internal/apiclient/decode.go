package apiclient

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxBodyBytes bounds what the client reads of one answer; the largest
// legitimate answer (a collection) is a few kilobytes.
const maxBodyBytes = 8 << 20

// envelope is every answer's outer object, whatever the format.
type envelope struct {
	Code   Int             `json:"code"`
	Status string          `json:"status"`
	Data   json.RawMessage `json:"data"`
}

// errorData is the optional detail of an error envelope.
type errorData struct {
	Message string          `json:"message"`
	Errors  json.RawMessage `json:"errors"`
}

// jsonpCall matches `name( ... )` with an optional `;`.
var jsonpCall = regexp.MustCompile(`^([A-Za-z_$][0-9A-Za-z_$.]*)\s*\(([\s\S]*)\)\s*;?\s*$`)

// decodeEnvelope reads a JSON, JSONP or XML envelope. The format is sniffed
// from the body rather than taken from the request, because a service may
// answer an early error in JSON whatever format was asked for. A body that
// is not an envelope gives a *DecodeError whose Snippet is filled in by the
// caller.
func decodeEnvelope(body []byte) (*envelope, error) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, &DecodeError{Reason: "empty body"}
	}
	var jsonBody []byte
	switch trimmed[0] {
	case '{':
		jsonBody = trimmed
	case '<':
		v, err := xmlToJSON(trimmed)
		if err != nil {
			return nil, &DecodeError{Reason: "invalid XML envelope: " + err.Error(), Err: err}
		}
		jsonBody = v
	default:
		m := jsonpCall.FindSubmatch(trimmed)
		if m == nil {
			return nil, &DecodeError{Reason: "neither JSON, JSONP nor XML"}
		}
		jsonBody = bytes.TrimSpace(m[2])
	}
	var env envelope
	if err := json.Unmarshal(jsonBody, &env); err != nil {
		return nil, &DecodeError{Reason: "invalid JSON envelope: " + err.Error(), Err: err}
	}
	if !env.Code.Valid {
		return nil, &DecodeError{Reason: "envelope has no numeric code"}
	}
	return &env, nil
}

// apiError builds the *APIError of a non-20 envelope; data.message and
// data.errors are read when present and readable.
func (env *envelope) apiError(action string) *APIError {
	e := &APIError{Action: action, Code: int(env.Code.Value), Status: env.Status}
	var d errorData
	if len(env.Data) > 0 && json.Unmarshal(env.Data, &d) == nil {
		e.Message = d.Message
		e.Errors = errorList(d.Errors)
	}
	return e
}

// errorList reads data.errors as the spec's string array, and tolerates a
// single string or an object of field to message(s).
func errorList(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var list []StringOrList
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, v := range list {
			if v.IsList {
				out = append(out, v.List...)
			} else {
				out = append(out, v.Value)
			}
		}
		return out
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil
		}
		return []string{one}
	}
	var byField map[string]StringOrList
	if json.Unmarshal(raw, &byField) == nil {
		keys := make([]string, 0, len(byField))
		for k := range byField {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var out []string
		for _, k := range keys {
			v := byField[k]
			if v.IsList {
				for _, s := range v.List {
					out = append(out, k+": "+s)
				}
			} else {
				out = append(out, k+": "+v.Value)
			}
		}
		return out
	}
	return []string{string(raw)}
}

// maxXMLDepth bounds nesting so hostile input cannot exhaust the stack.
const maxXMLDepth = 64

type xmlNode struct {
	name     string
	text     strings.Builder
	children []*xmlNode
}

// xmlToJSON turns the XML envelope into the equivalent JSON document:
// an element with child elements becomes an object (repeated names become
// an array), an element whose children are all <item> becomes an array,
// a leaf becomes its text, and an empty leaf becomes null, so it reads as
// an absent value (an empty string, an empty list, an invalid Int).
// Attributes are ignored.
func xmlToJSON(body []byte) ([]byte, error) {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	var root *xmlNode
	var stack []*xmlNode
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, errors.New("more than one root element")
			}
			if len(stack) >= maxXMLDepth {
				return nil, errors.New("nesting too deep")
			}
			n := &xmlNode{name: t.Name.Local}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			} else if len(bytes.TrimSpace(t)) > 0 {
				return nil, errors.New("text outside the root element")
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return json.Marshal(root.value())
}

func (n *xmlNode) value() any {
	if len(n.children) == 0 {
		if n.text.Len() == 0 || strings.TrimSpace(n.text.String()) == "" {
			return nil
		}
		return n.text.String()
	}
	allItems := true
	for _, c := range n.children {
		if c.name != "item" {
			allItems = false
			break
		}
	}
	if allItems {
		arr := make([]any, 0, len(n.children))
		for _, c := range n.children {
			arr = append(arr, c.value())
		}
		return arr
	}
	obj := make(map[string]any, len(n.children))
	for _, c := range n.children {
		v := c.value()
		prev, seen := obj[c.name]
		if !seen {
			obj[c.name] = v
			continue
		}
		if arr, ok := prev.(repeated); ok {
			obj[c.name] = append(arr, v)
		} else {
			obj[c.name] = repeated{prev, v}
		}
	}
	return obj
}

// repeated marks an array built from repeated sibling elements, so a third
// sibling extends it instead of nesting.
type repeated []any

// snippet is the start of a body for an error message: at most
// snippetLimit bytes, cut on a rune boundary, with credentials redacted.
func snippet(body []byte, r *redactor) string {
	const snippetLimit = 200
	// Redact before cutting, so a credential cut in half cannot slip through.
	s := r.redact(strings.ToValidUTF8(string(body), "\uFFFD"))
	if len(s) <= snippetLimit {
		return s
	}
	s = s[:snippetLimit]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// decodeData unmarshals an envelope's data into v; a success envelope
// without data leaves v zero.
func decodeData(data json.RawMessage, v any) error {
	if len(data) == 0 || string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	return nil
}

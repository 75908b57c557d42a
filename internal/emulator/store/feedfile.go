package store

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A fixture feed may name a file of products instead of listing them:
//
//	{"sourceHash": "feed-x", "file": "products.csv"}
//
// The file is resolved relative to the fixture file (relative to the
// current directory for ParseFixture). Its type is its extension:
//   - .csv: comma-separated, RFC 4180 quoting, a header row of column names
//     (non-empty, each once), then one product per row with as many fields
//     as the header; every value is text. A UTF-8 byte order mark is
//     skipped, as spreadsheet exports write one.
//   - .json: an array of objects whose values are strings, numbers or
//     booleans, exactly as inline products.
//
// A bad file is an error naming the file, the line and the column.

// ResolveFeedFiles reads every feed's file, relative to dir. LoadFixture
// and ParseFixture call it; a Fixture built in Go calls it before New.
func (f *Fixture) ResolveFeedFiles(dir string) error {
	for i := range f.Accounts {
		for j := range f.Accounts[i].Feeds {
			fd := &f.Accounts[i].Feeds[j]
			if fd.File == "" || fd.fromFile {
				continue
			}
			where := fmt.Sprintf("accounts[%d].feeds[%d]", i, j)
			if len(fd.Products) > 0 {
				return fmt.Errorf("%s: give products or file, not both", where)
			}
			path := fd.File
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, path)
			}
			products, columns, err := readFeedFile(path)
			if err != nil {
				return fmt.Errorf("%s.file: %w", where, err)
			}
			fd.Products, fd.columns, fd.fromFile = products, columns, true
		}
	}
	return nil
}

// FeedFileError is a fault in a feed file, at a line and column (both
// 1-based; the column counts bytes, as encoding/csv does).
type FeedFileError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *FeedFileError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

func readFeedFile(path string) ([]map[string]any, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return readCSVFeed(path, b)
	case ".json":
		return readJSONFeed(path, b)
	}
	return nil, nil, fmt.Errorf("%s: unknown feed file type %q: use .csv or .json", path, filepath.Ext(path))
}

func readCSVFeed(path string, b []byte) ([]map[string]any, []string, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1 // counted below, to say which column is missing or extra
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, &FeedFileError{File: path, Line: 1, Column: 1, Msg: "empty file: the first row must name the columns"}
	}
	if err != nil {
		return nil, nil, csvError(path, err)
	}
	seen := map[string]bool{}
	for i, name := range header {
		line, col := r.FieldPos(i)
		switch {
		case strings.TrimSpace(name) == "":
			return nil, nil, &FeedFileError{File: path, Line: line, Column: col, Msg: fmt.Sprintf("column %d has no name in the header row", i+1)}
		case seen[name]:
			return nil, nil, &FeedFileError{File: path, Line: line, Column: col, Msg: fmt.Sprintf("column %q is named twice in the header row", name)}
		}
		seen[name] = true
	}
	header = append([]string(nil), header...)
	var products []map[string]any
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, csvError(path, err)
		}
		if len(rec) != len(header) {
			line, col := r.FieldPos(min(len(rec), len(header)) - 1)
			if len(rec) > len(header) {
				line, col = r.FieldPos(len(header))
			}
			return nil, nil, &FeedFileError{File: path, Line: line, Column: col,
				Msg: fmt.Sprintf("row has %s, the header names %s", count(len(rec), "field"), count(len(header), "column"))}
		}
		p := make(map[string]any, len(header))
		for i, v := range rec {
			p[header[i]] = v
		}
		products = append(products, p)
	}
	return products, header, nil
}

// count is "1 field", "2 fields".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &FeedFileError{File: path, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// readJSONFeed walks the tokens so that a fault is placed at its line and
// column and the columns keep the order of their first appearance.
func readJSONFeed(path string, b []byte) ([]map[string]any, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	at := func(off int64, format string, args ...any) error {
		line, col := lineCol(b, off)
		return &FeedFileError{File: path, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
	}
	next := func() (json.Token, int64, error) {
		start := skipSpace(b, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
				return nil, start, at(se.Offset, "invalid JSON: %v", se)
			case errors.Is(err, io.EOF):
				return nil, start, at(int64(len(b)), "unexpected end of the file")
			}
			return nil, start, at(start, "invalid JSON: %v", err)
		}
		return tok, start, nil
	}
	tok, off, err := next()
	if err != nil {
		return nil, nil, err
	}
	if tok != json.Delim('[') {
		return nil, nil, at(off, "the file must hold a JSON array of product objects")
	}
	var products []map[string]any
	var columns []string
	known := map[string]bool{}
	for dec.More() {
		tok, off, err := next()
		if err != nil {
			return nil, nil, err
		}
		if tok != json.Delim('{') {
			return nil, nil, at(off, "product %d must be an object", len(products)+1)
		}
		p := map[string]any{}
		for dec.More() {
			kt, koff, err := next()
			if err != nil {
				return nil, nil, err
			}
			key, _ := kt.(string)
			if _, dup := p[key]; dup {
				return nil, nil, at(koff, "column %q appears twice in product %d", key, len(products)+1)
			}
			vt, voff, err := next()
			if err != nil {
				return nil, nil, err
			}
			if _, ok := scalarText(vt); !ok {
				return nil, nil, at(voff, "column %q of product %d must be a string, number or boolean", key, len(products)+1)
			}
			p[key] = vt
			if !known[key] {
				known[key] = true
				columns = append(columns, key)
			}
		}
		if _, _, err := next(); err != nil { // the closing brace
			return nil, nil, err
		}
		products = append(products, p)
	}
	if _, _, err := next(); err != nil { // the closing bracket
		return nil, nil, err
	}
	if off := skipSpace(b, dec.InputOffset()); off < int64(len(b)) {
		return nil, nil, at(off, "unexpected data after the array")
	}
	return products, columns, nil
}

// skipSpace moves off past JSON whitespace and the separators the decoder
// has not consumed yet, to where the next token starts.
func skipSpace(b []byte, off int64) int64 {
	for off < int64(len(b)) && strings.IndexByte(" \t\r\n:,", b[off]) >= 0 {
		off++
	}
	return off
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	off = min(off, int64(len(b)))
	before := b[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// inlineColumns records the column order of inline products, which a Go
// map forgets: the order of first appearance in the fixture text.
func (f *Fixture) InlineColumns(b []byte) {
	var doc struct {
		Accounts []struct {
			Feeds []struct {
				Products []orderedKeys `json:"products"`
			} `json:"feeds"`
		} `json:"accounts"`
	}
	if json.Unmarshal(b, &doc) != nil || len(doc.Accounts) != len(f.Accounts) {
		return
	}
	for i, a := range doc.Accounts {
		if len(a.Feeds) != len(f.Accounts[i].Feeds) {
			continue
		}
		for j, fd := range a.Feeds {
			known := map[string]bool{}
			var cols []string
			for _, p := range fd.Products {
				for _, k := range p {
					if !known[k] {
						known[k] = true
						cols = append(cols, k)
					}
				}
			}
			f.Accounts[i].Feeds[j].columns = cols
		}
	}
}

// orderedKeys is the keys of a JSON object in document order.
type orderedKeys []string

func (o *orderedKeys) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return nil // not an object: the strict decoding reports it
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if k, ok := tok.(string); ok {
			*o = append(*o, k)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}

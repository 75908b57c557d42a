// Package engine holds the pure rules of the Flipbook API emulator: it checks
// the JSON parameters of collection.createFromTemplate, collection.createCatalog
// and collection.setPermissions, checks folder paths, and computes what a
// generation produces (page count, and for catalogs the products on each page).
//
// It keeps no state, reads no clock and does no I/O, and it deliberately shares
// no code with the API client: each side validates on its own so that tests of
// one catch mistakes in the other.
//
// Where the spec states a rule, the engine follows its words; where it is
// silent, the choice is listed in the README ("Where the spec is silent, the
// emulator …") and described on the function that makes it. Common to every
// JSON parameter:
//   - Decoding is strict: a value of the wrong JSON type, an unknown field, or
//     trailing data after the value, or a field repeated within one object is
//     a validation error naming the field path, never a panic and never
//     silently ignored. Decoding stops at the first syntax error or repeated
//     field, so those are reported alone.
//   - A JSON null for an optional field means the field is omitted.
//   - Every error is collected (not just the first), in a deterministic order:
//     document order of the sections and their entries, and within an object
//     the order in which its fields are listed in the spec; unknown fields come
//     last, sorted by name. Past MaxErrors, one last entry counts the rest.
package engine

import (
	"fmt"
	"strings"
)

// ValidationFailed is the data.message of every section and folder failure.
// The spec shows that a message exists but not its text; one fixed string keeps
// data.errors the only place where details live.
const ValidationFailed = "Validation failed"

// MaxErrors is how many entries data.errors lists at most; one more entry
// then says how many were left out. The spec sets no number; the README
// lists the choice ("Where the spec is silent, the emulator …").
const MaxErrors = 100

// capErrors keeps the first MaxErrors of errs out of found errors in all,
// and says, under root, how many more there were.
func capErrors(root string, errs []string, found int) []string {
	if len(errs) > MaxErrors {
		errs = errs[:MaxErrors]
	}
	if more := found - len(errs); more > 0 {
		errs = append(errs, fmt.Sprintf("%s: %d more errors not listed; the emulator lists at most %d", root, more, MaxErrors))
	}
	return errs
}

// Template is a template record of the account's fixture.
type Template struct {
	Hash            string
	Pages           int
	Layers          []string
	ProductsPerPage int
}

// Product is one row of a product feed: column name to value. The "sku"
// column is the SKU.
type Product map[string]string

// SKU is the product's "sku" column.
func (p Product) SKU() string { return p["sku"] }

// Feed is a product feed record of the account's fixture.
type Feed struct {
	Hash     string
	Products []Product
}

// Library resolves the template and feed hashes a request names.
type Library interface {
	Template(hash string) (Template, bool)
	Feed(hash string) (Feed, bool)
}

// Invalid is answered by the server as code 40 with data.message = Message and
// data.errors = Errors.
type Invalid struct {
	Message string
	Errors  []string
}

func (e *Invalid) Error() string {
	if len(e.Errors) == 0 {
		return e.Message
	}
	return e.Message + ": " + strings.Join(e.Errors, "; ")
}

// Join merges several results into one (for example the folder's and the
// sections' errors of one request), keeping their order. It returns nil when
// every part is nil, and takes the Message of the first non-nil part.
func Join(parts ...*Invalid) *Invalid {
	var out *Invalid
	for _, p := range parts {
		if p == nil {
			continue
		}
		if out == nil {
			out = &Invalid{Message: p.Message}
		}
		out.Errors = append(out.Errors, p.Errors...)
	}
	return out
}

// Generation is what a generation request produces.
type Generation struct {
	PageCount int
	// Layout is set for catalogs only: the SKUs on each page, in page order.
	Layout [][]string
}

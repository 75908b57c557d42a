package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Permission types of collection.setPermissions.
const (
	TypeTeammate = "teammate"
	TypeOTP      = "otp"
	TypeSSO      = "sso"
)

// Messages of collection.setPermissions, verbatim from the spec's table.
const (
	msgPayload      = "Invalid permissions payload"
	msgMixedTypes   = "Permissions cannot combine multiple types"
	msgSSOWithEmail = "SSO permission cannot include an email - use teammate or user for per-email access"
	msgFormat       = "Invalid permissions format."
)

func msgBadType(i int, got string) string {
	return fmt.Sprintf("Invalid permission type at index %d (got '%s')", i, got)
}
func msgEmailAndGroup(i int) string {
	return fmt.Sprintf("Permission at index %d cannot have both email and group", i)
}
func msgGroupOnOTP(i int) string {
	return fmt.Sprintf("Permission at index %d cannot have group (type=otp; group allowed only on teammate/sso)", i)
}
func msgNeedsEmail(i int) string {
	return fmt.Sprintf("Permission at index %d requires an email", i)
}
func msgBadEmail(i int) string { return fmt.Sprintf("Invalid email at index %d", i) }
func msgDuplicate(i int) string {
	return fmt.Sprintf("Duplicate permission at index %d", i)
}

// PermissionEntry is one validated entry of collection.setPermissions. Email
// and Group are as sent ("" when absent); Email keeps its case.
type PermissionEntry struct {
	Type, Email, Group string
	NotifyViaEmail     bool
}

// ParsePermissions validates collection.setPermissions's `permissions`
// parameter (the raw JSON string, already URL-decoded) with every rule and
// message of the spec's table; N in a message is the zero-based entry index.
// Plan features (OTP, SSO) and whether groups or readers exist are not checked
// here: the server does that with the account's data.
//
// Order and grouping of the messages (the spec is silent):
//   - A payload that is not JSON (a field repeated within one object
//     included), not an object whose only field is a `permissions` array, or that has an entry that is not an object, gives
//     the single error "Invalid permissions payload" and nothing else.
//   - Otherwise "Permissions cannot combine multiple types" comes first, once,
//     when the entries with a known type do not all share it; then each entry's
//     errors in index order, in the order of the spec's table.
//   - Messages without an index (the SSO email rule, "Invalid permissions
//     format.") appear once however many entries break them.
//   - "Invalid permissions format." covers a field of the wrong JSON type other
//     than `type` and `email` (notifyViaEmail not a boolean, group not a
//     string), an empty group, and an unknown field in an entry.
//   - A missing `type` is reported with an empty value between the quotes;
//     a non-string one with its JSON text.
//   - An `email` that is present but empty or not a string is an invalid
//     email (never read as "no email", which would widen a teammate entry to
//     every reader); a JSON null counts as absent for every field.
//   - Email format: see validEmail.
//   - An entry is a duplicate of an earlier error-free entry with the same
//     type, the same email ignoring case, and the same group (case-sensitive,
//     as group names are matched exactly). Entries with errors of their own are
//     not checked for duplicates.
func ParsePermissions(raw string) ([]PermissionEntry, *Invalid) {
	payload := func() ([]PermissionEntry, *Invalid) {
		return nil, &Invalid{Message: ValidationFailed, Errors: []string{msgPayload}}
	}
	// Spec, errors table: "not valid JSON, or inner `permissions` not an
	// array": "Invalid permissions payload".
	v, err := decodeJSON(raw, "permissions")
	var limit *limitExceeded
	if errors.As(err, &limit) {
		// The emulator's own limit (README): the spec's message, then the
		// limit that was passed.
		return nil, &Invalid{Message: ValidationFailed, Errors: []string{msgPayload, limit.Error()}}
	}
	if err != nil {
		return payload()
	}
	root, ok := v.(map[string]any)
	if !ok || len(root) != 1 {
		return payload()
	}
	list, ok := root["permissions"].([]any)
	if !ok {
		return payload()
	}
	objs := make([]map[string]any, len(list))
	for i, e := range list {
		if objs[i], ok = e.(map[string]any); !ok {
			return payload()
		}
	}

	var errs []string
	seen := map[string]bool{}
	entryBad := false // the current entry broke a rule
	report := func(msg string) {
		entryBad = true
		if !seen[msg] {
			seen[msg] = true
			errs = append(errs, msg)
		}
	}
	entries := make([]PermissionEntry, 0, len(objs))
	firstType := ""
	mixed := false
	keys := map[string]bool{}
	for i, m := range objs {
		entryBad = false
		var e PermissionEntry
		typeOK := false
		// Spec, Permission object: `type` is "`teammate`, `otp`, `sso`";
		// "unknown `type`": "Invalid permission type at index N (got '<value>')".
		switch t := m["type"].(type) {
		case nil:
			report(msgBadType(i, ""))
		case string:
			if t == TypeTeammate || t == TypeOTP || t == TypeSSO {
				e.Type, typeOK = t, true
			} else {
				report(msgBadType(i, t))
			}
		default:
			text, _ := json.Marshal(t)
			report(msgBadType(i, string(text)))
		}
		// Spec, rule 1: "All entries in a non-empty array must share one type".
		if typeOK {
			if firstType == "" {
				firstType = e.Type
			} else if e.Type != firstType {
				mixed = true
			}
		}

		emailV, hasEmail := lookup(m, "email")
		groupV, hasGroup := lookup(m, "group")
		formatOK := true
		if hasGroup {
			g, isString := groupV.(string)
			if !isString || g == "" {
				formatOK = false
			}
			e.Group = g
		}
		// Spec, rule 2: "`email` and `group` cannot be in the same entry".
		if hasEmail && hasGroup {
			report(msgEmailAndGroup(i))
		}
		// Spec, rule 4: "`otp` requires `email`; `group` is not allowed on `otp`".
		if e.Type == TypeOTP && hasGroup {
			report(msgGroupOnOTP(i))
		}
		if e.Type == TypeOTP && !hasEmail {
			report(msgNeedsEmail(i))
		}
		// Spec, rule 5: on `sso` "`email` is not allowed".
		if e.Type == TypeSSO && hasEmail {
			report(msgSSOWithEmail)
		}
		// Spec, errors table: "bad email format": "Invalid email at index N".
		if hasEmail && e.Type != TypeSSO {
			s, isString := emailV.(string)
			if !isString || !validEmail(s) {
				report(msgBadEmail(i))
			}
			e.Email = s
		}
		// Spec, errors table: "`notifyViaEmail` not boolean": "Invalid permissions format.".
		if nv, ok := lookup(m, "notifyViaEmail"); ok {
			b, isBool := nv.(bool)
			if !isBool {
				formatOK = false
			}
			e.NotifyViaEmail = b
		}
		for k := range m {
			if k != "type" && k != "email" && k != "group" && k != "notifyViaEmail" {
				formatOK = false
			}
		}
		if !formatOK {
			report(msgFormat)
		}
		if entryBad {
			continue
		}
		// Spec, errors table: "duplicate entry": "Duplicate permission at index N".
		key := e.Type + "\x00" + strings.ToLower(e.Email) + "\x00" + e.Group
		if keys[key] {
			report(msgDuplicate(i))
			continue
		}
		keys[key] = true
		entries = append(entries, e)
	}
	if mixed {
		errs = append([]string{msgMixedTypes}, errs...)
	}
	if len(errs) > 0 {
		return nil, &Invalid{Message: ValidationFailed, Errors: capErrors("permissions", errs, len(errs))}
	}
	return entries, nil
}

// validEmail decides the spec's "bad email format" (collection.setPermissions:
// "Invalid email at index N"), a format the spec does not define. The
// emulator's reading, listed in the README: exactly one "@", a non-empty
// local part, a domain of two or more non-empty dot-separated labels, and no
// space or control character anywhere. Letters of any script, any case,
// "+", "'" and punycode labels are all accepted.
func validEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at <= 0 || strings.Count(s, "@") != 1 {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError {
			return false
		}
	}
	labels := strings.Split(s[at+1:], ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
	}
	return true
}

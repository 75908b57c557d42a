package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// permissionEntry is one access row as plain Go values: the mapping and the
// rules below need no Terraform types, so they are tested without Terraform.
// Unknown is set when a field is not known until apply; such an entry counts
// only towards the one-type rule (when its type is known).
type permissionEntry struct {
	Type, Email, Group          string
	HasType, HasEmail, HasGroup bool
	Unknown                     bool
}

func (p permissionEntry) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "{type = %q", p.Type)
	if p.HasEmail {
		fmt.Fprintf(&b, ", email = %q", p.Email)
	}
	if p.HasGroup {
		fmt.Fprintf(&b, ", group = %q", p.Group)
	}
	b.WriteString("}")
	return b.String()
}

// key identifies an entry as the service does: the email ignoring case, the
// group exactly (group names are matched exactly).
func (p permissionEntry) key() string {
	return p.Type + "\x00" + strings.ToLower(p.Email) + "\x00" + p.Group
}

// permissionProblem is one broken rule of collection.setPermissions. Index is
// the entry at fault (-1: the list as a whole); Field is the attribute within
// the entry ("" for the entry itself). A Warning is a guess the spec does not
// state: it never stops a plan.
type permissionProblem struct {
	Index   int
	Field   string
	Detail  string
	Warning bool
}

// validatePermissions applies the rules of collection.setPermissions that the
// spec states and that can be known before a call, so that a plan never
// proposes a list the spec forbids. Where the spec is silent (the e-mail
// format, whether duplicates compare e-mails ignoring case) it only warns.
// Plan features (OTP, SSO) and whether a group or reader exists depend on the
// account and are left to the service.
func validatePermissions(entries []permissionEntry) []permissionProblem {
	var out []permissionProblem
	types := map[string]bool{}
	var typeOrder []string
	for _, e := range entries {
		if e.HasType && isPermissionType(e.Type) && !types[e.Type] {
			types[e.Type] = true
			typeOrder = append(typeOrder, e.Type)
		}
	}
	// Spec, collection.setPermissions rule 1: "All entries in a non-empty array must share one type".
	if len(typeOrder) > 1 {
		out = append(out, permissionProblem{Index: -1, Detail: fmt.Sprintf(
			"All entries must share one type; this list mixes %s. The service keeps one kind of access per collection: "+
				"choose teammate (workspace readers), otp (one-time passcode by email) or sso (single sign-on).",
			strings.Join(typeOrder, ", "))})
	}

	seen := map[string]int{}
	for i, e := range entries {
		if e.Unknown {
			continue
		}
		errsBefore := countErrors(out)
		// Spec, Permission object: `type` is "`teammate`, `otp`, `sso`".
		if e.HasType && !isPermissionType(e.Type) {
			out = append(out, permissionProblem{Index: i, Field: "type", Detail: fmt.Sprintf(
				"type must be one of teammate, otp, sso; got %q.", e.Type)})
		}
		// Spec, rule 2: "`email` and `group` cannot be in the same entry".
		if e.HasEmail && e.HasGroup {
			out = append(out, permissionProblem{Index: i, Detail: fmt.Sprintf(
				"An entry cannot have both email and group (%s). Use two entries, one with the email and one with the group.", e)})
		}
		if e.HasType && e.Type == apiclient.PermissionOTP {
			// Spec, rule 4: "`group` is not allowed on `otp`".
			if e.HasGroup {
				out = append(out, permissionProblem{Index: i, Field: "group", Detail: "An otp entry takes no group: " +
					"a one-time passcode is sent to one email address. Groups are allowed on teammate and sso entries only."})
			}
			// Spec, rule 4: "`otp` requires `email`".
			if !e.HasEmail {
				out = append(out, permissionProblem{Index: i, Field: "email", Detail: "An otp entry requires an email: " +
					"the one-time passcode is sent to it."})
			}
		}
		// Spec, rule 5: on `sso` "`email` is not allowed".
		if e.HasType && e.Type == apiclient.PermissionSSO && e.HasEmail {
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: "An sso entry takes no email: " +
				"it grants access to every SSO viewer, or to one SSO group with group. For per-email access use teammate or otp."})
		}
		// Not a rule of the service: the API client sends no field for an
		// empty string, so "" would turn the entry into a bare one that
		// grants every reader or SSO viewer. Omit the attribute instead.
		if e.HasEmail && e.Email == "" {
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: "email is empty. The provider cannot " +
				"send an empty email: it would be read as no email, which grants every reader. Omit email, or give an address."})
		} else if e.HasEmail && !looksLikeEmail(e.Email) {
			// Spec, errors table: "bad email format" gets "Invalid email at
			// index N", but no format is given: this is a guess, so a warning.
			out = append(out, permissionProblem{Index: i, Field: "email", Warning: true, Detail: fmt.Sprintf(
				"%q does not look like an email address (one \"@\", a name before it and a domain with a dot after it). "+
					"The spec does not define the format the service accepts, so this is a guess and the plan goes ahead; "+
					"if the service refuses the address, the apply fails with its answer on this entry.", e.Email)})
		}
		if e.HasGroup && e.Group == "" {
			out = append(out, permissionProblem{Index: i, Field: "group", Detail: "group is empty. The provider cannot " +
				"send an empty group: it would be read as no group, which grants every reader (teammate) or every SSO " +
				"viewer (sso). Omit group to mean that, or name a group."})
		}
		if countErrors(out) > errsBefore || !e.HasType {
			continue
		}
		// Spec, errors table: "duplicate entry" gets "Duplicate permission at
		// index N"; a set cannot hold two equal entries, and whether the
		// service compares e-mails ignoring case is not stated: a warning.
		if j, dup := seen[e.key()]; dup {
			out = append(out, permissionProblem{Index: i, Warning: true, Detail: fmt.Sprintf(
				"%s differs from %s only in the letter case of the email. The spec does not say whether the service "+
					"compares emails ignoring case; if it does, it refuses the list as a duplicate (\"Duplicate permission\"). "+
					"This is a guess, so the plan goes ahead; keep one of the two entries to be safe.", e, entries[j])})
			continue
		}
		seen[e.key()] = i
	}
	return out
}

func countErrors(ps []permissionProblem) int {
	n := 0
	for _, p := range ps {
		if !p.Warning {
			n++
		}
	}
	return n
}

func isPermissionType(t string) bool {
	return t == apiclient.PermissionTeammate || t == apiclient.PermissionOTP || t == apiclient.PermissionSSO
}

// looksLikeEmail is the provider's own guess at an address (the spec gives
// none): one "@", something before it, and a dot in what follows. Plus
// addressing, apostrophes, upper case, punycode and Unicode domains pass.
func looksLikeEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && !strings.Contains(domain, "@") && strings.Contains(domain, ".")
}

// indexedAnswer matches the entry index in the messages of the spec's
// collection.setPermissions table ("Invalid email at index N", "Permission at
// index N requires an email", ...).
var indexedAnswer = regexp.MustCompile(`\bat index (\d+)\b`)

// answerIndex is the entry index a message of the service names, or -1.
func answerIndex(msg string, n int) int {
	m := indexedAnswer.FindStringSubmatch(msg)
	if m == nil {
		return -1
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || i < 0 || i >= n {
		return -1
	}
	return i
}

// permissionsToAPI is the list collection.setPermissions receives.
func permissionsToAPI(entries []permissionEntry, notify bool) []apiclient.Permission {
	out := make([]apiclient.Permission, 0, len(entries))
	for _, e := range entries {
		out = append(out, apiclient.Permission{Type: e.Type, Email: e.Email, Group: e.Group, NotifyViaEmail: notify})
	}
	return out
}

// permissionsFromAPI maps the service's list to entries. An email the service
// spells with other letter case than a prior entry (from configuration or
// state) keeps the prior spelling, so that case alone never shows a diff.
func permissionsFromAPI(saved []apiclient.Permission, prior []permissionEntry) []permissionEntry {
	spelling := map[string]string{}
	for _, p := range prior {
		if p.HasEmail {
			spelling[p.key()] = p.Email
		}
	}
	out := make([]permissionEntry, 0, len(saved))
	for _, s := range saved {
		e := permissionEntry{Type: s.Type, HasType: true, Email: s.Email, HasEmail: s.Email != "", Group: s.Group, HasGroup: s.Group != ""}
		if e.HasEmail {
			if sp, ok := spelling[e.key()]; ok {
				e.Email = sp
			}
		}
		out = append(out, e)
	}
	return out
}

// skippedPermission is an entry the service dropped without an error, with
// the likely reason (spec, collection.setPermissions rule 6).
type skippedPermission struct {
	Entry  permissionEntry
	Reason string
}

// skippedPermissions lists the sent entries missing from the saved list.
func skippedPermissions(sent []permissionEntry, saved []apiclient.Permission) []skippedPermission {
	kept := map[string]bool{}
	for _, s := range saved {
		kept[permissionEntry{Type: s.Type, Email: s.Email, Group: s.Group}.key()] = true
	}
	var out []skippedPermission
	for _, e := range sent {
		if kept[e.key()] {
			continue
		}
		out = append(out, skippedPermission{Entry: e, Reason: skipReason(e)})
	}
	return out
}

func skipReason(e permissionEntry) string {
	switch {
	case e.Type == apiclient.PermissionTeammate && e.HasGroup:
		return fmt.Sprintf("the workspace has no group named %q (names match exactly, including case)", e.Group)
	case e.Type == apiclient.PermissionTeammate && e.HasEmail:
		return fmt.Sprintf("%s is not an accepted reader of the workspace (invite them, and they must accept)", e.Email)
	case e.Type == apiclient.PermissionSSO && e.HasGroup:
		return fmt.Sprintf("the workspace has no SSO group named %q", e.Group)
	}
	return "the service dropped it without saying why"
}

// describeSkipped is the error detail for entries the service skipped.
func describeSkipped(skipped []skippedPermission, sent int) string {
	var b strings.Builder
	if len(skipped) == sent {
		// Spec, rule 6: "When all entries are skipped, nothing is saved".
		fmt.Fprintf(&b, "The service skipped all %d entries, so it saved nothing and the collection keeps the list it had:\n", sent)
	} else {
		fmt.Fprintf(&b, "The service saved the access list but skipped %d of its entries:\n", len(skipped))
	}
	for _, s := range skipped {
		fmt.Fprintf(&b, "  - %s: %s\n", s.Entry, s.Reason)
	}
	b.WriteString("\nThe state now holds the list the collection really has, so the next plan shows the skipped entries again. " +
		"Fix the workspace (create the group, have the reader accept the invitation) or remove the entries from the configuration.")
	return b.String()
}

package provider

import (
	"fmt"
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
// the entry ("" for the entry itself).
type permissionProblem struct {
	Index  int
	Field  string
	Detail string
}

// validatePermissions applies every rule of collection.setPermissions that
// can be known before a call, in the spec's terms, so that a plan never
// proposes a list the service would refuse. Plan features (OTP, SSO) and
// whether a group or reader exists depend on the account and are left to the
// service.
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
		before := len(out)
		if e.HasType && !isPermissionType(e.Type) {
			out = append(out, permissionProblem{Index: i, Field: "type", Detail: fmt.Sprintf(
				"type must be one of teammate, otp, sso; got %q.", e.Type)})
		}
		if e.HasEmail && e.HasGroup {
			out = append(out, permissionProblem{Index: i, Detail: fmt.Sprintf(
				"An entry cannot have both email and group (%s). Use two entries, one with the email and one with the group.", e)})
		}
		if e.HasType && e.Type == apiclient.PermissionOTP {
			if e.HasGroup {
				out = append(out, permissionProblem{Index: i, Field: "group", Detail: "An otp entry takes no group: " +
					"a one-time passcode is sent to one email address. Groups are allowed on teammate and sso entries only."})
			}
			if !e.HasEmail {
				out = append(out, permissionProblem{Index: i, Field: "email", Detail: "An otp entry requires an email: " +
					"the one-time passcode is sent to it."})
			}
		}
		if e.HasType && e.Type == apiclient.PermissionSSO && e.HasEmail {
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: "An sso entry takes no email: " +
				"it grants access to every SSO viewer, or to one SSO group with group. For per-email access use teammate or otp."})
		}
		if e.HasEmail && !validEmail(e.Email) {
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: fmt.Sprintf(
				"%q is not an email address the service accepts (name@domain.tld).", e.Email)})
		}
		if e.HasGroup && e.Group == "" {
			out = append(out, permissionProblem{Index: i, Field: "group", Detail: "group must not be empty; " +
				"omit it to mean every reader (teammate) or every SSO viewer (sso)."})
		}
		if len(out) > before || !e.HasType {
			continue
		}
		if j, dup := seen[e.key()]; dup {
			out = append(out, permissionProblem{Index: i, Detail: fmt.Sprintf(
				"%s duplicates %s: emails are compared ignoring case. Keep one of them.", e, entries[j])})
			continue
		}
		seen[e.key()] = i
	}
	return out
}

func isPermissionType(t string) bool {
	return t == apiclient.PermissionTeammate || t == apiclient.PermissionOTP || t == apiclient.PermissionSSO
}

// validEmail is the service's sanity rule (one "@", a printable local part, a
// dotted domain of letters, digits and inner hyphens ending in a label of
// letters), not RFC 5322: an address it refuses would fail at apply.
func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || len(s) > 254 || strings.Contains(domain, "@") {
		return false
	}
	for _, c := range []byte(local) {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range []byte(l) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for _, c := range []byte(tld) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
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
func describeSkipped(skipped []skippedPermission) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The service saved the access list but skipped %d of its entries:\n", len(skipped))
	for _, s := range skipped {
		fmt.Fprintf(&b, "  - %s: %s\n", s.Entry, s.Reason)
	}
	b.WriteString("\nThe state now holds the list the service really saved, so the next plan shows the skipped entries again. " +
		"Fix the workspace (create the group, have the reader accept the invitation) or remove the entries from the configuration.")
	return b.String()
}

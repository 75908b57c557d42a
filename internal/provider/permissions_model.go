package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

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

// key identifies an entry by the one rule the client also uses
// (apiclient.PermissionKey).
func (p permissionEntry) key() string {
	return apiclient.PermissionKey(apiclient.Permission{Type: p.Type, Email: p.Email, Group: p.Group})
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
// proposes a list the spec forbids. An e-mail without "@" is refused (no
// address format lacks one); where the spec is silent (the rest of the e-mail
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
		switch {
		case e.HasEmail && e.Email == "":
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: "email is empty. The provider cannot " +
				"send an empty email: it would be read as no email, which grants every reader. Omit email, or give an address."})
		case e.HasEmail && !strings.Contains(e.Email, "@"):
			// Spec, setPermissions errors: "bad email format" gets "Invalid email at index N"; no address format lacks an "@".
			out = append(out, permissionProblem{Index: i, Field: "email", Detail: fmt.Sprintf(
				"%q is not an email address: it has no \"@\". The service refuses a bad email format (\"Invalid email\"), "+
					"and an address without \"@\" is bad under every definition of one. Write the whole address, "+
					"such as \"ana@example.com\".", e.Email)})
		case e.HasEmail && !looksLikeEmail(e.Email):
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

// adviceSkipped is what to do about skipped entries, in Terraform's terms.
// Both steps are tested as written (TestAccCollectionPermissions_skippedConverges
// and TestCLICollectionPermissions_readerAccepts).
const adviceSkipped = "Once a skipped reader has accepted the invitation (or the group exists), add the entries with " +
	"`terraform apply -replace=ADDRESS`, ADDRESS being this resource's address: the list is sent once more and never " +
	"emptied in between, and with notify_via_email only the entries not yet on the list are e-mailed. To make runs fail " +
	"while entries are skipped, add this block to the resource:\n\n" + postconditionAdvice

// postconditionAdvice is the lifecycle block adviceSkipped gives, as HCL
// that can be pasted into the resource block (indented lines keep their
// breaks in Terraform's diagnostics).
const postconditionAdvice = `  lifecycle {
    postcondition {
      condition     = length(self.skipped_permissions) == 0
      error_message = "Access list entries were skipped."
    }
  }`

func writeSkipped(b *strings.Builder, entries []permissionEntry) {
	for _, e := range entries {
		fmt.Fprintf(b, "  - %s: %s\n", e, skipReason(e))
	}
}

// describeSkipped is the warning detail for entries the service skipped.
func describeSkipped(hash string, skipped []skippedPermission, sent int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The service saved the access list of collection %s without %d of its %d entries (it skips them "+
		"without an error):\n", hash, len(skipped), sent)
	writeSkipped(&b, entriesOfSkipped(skipped))
	b.WriteString("\nThey are listed in skipped_permissions. The state keeps them in permissions, so later plans show no " +
		"change and send nothing, and nobody is e-mailed again, until the configuration or the saved list changes. " + adviceSkipped)
	return b.String()
}

// describeStillSkipped is the plan-time warning while entries stay skipped.
func describeStillSkipped(hash string, skipped []permissionEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "At its last change the service skipped %d entries of the access list of collection %s; they are "+
		"not on the saved list, and a plan that keeps this access list does not send them again (a run with "+
		"-replace of this resource does, once):\n", len(skipped), hash)
	writeSkipped(&b, skipped)
	b.WriteString("\n" + adviceSkipped)
	return b.String()
}

// describeAllSkipped is the error when every entry was skipped and the
// collection kept a list that is not the configured one.
func describeAllSkipped(hash string, skipped []skippedPermission, held []apiclient.Permission) string {
	var b strings.Builder
	// Spec, rule 6: "When all entries are skipped, nothing is saved".
	fmt.Fprintf(&b, "The service skipped all %d entries, so it saved nothing and collection %s keeps the list it had "+
		"(%d entries), which the configuration does not ask for:\n", len(skipped), hash, len(held))
	writeSkipped(&b, entriesOfSkipped(skipped))
	b.WriteString("\nThe provider never empties a list for you. Correct the entries (create the group, have the reader " +
		"accept the invitation), or write permissions = [] to remove every private access row.")
	return b.String()
}

// keyOf is the key of an entry the service lists.
func keyOf(p apiclient.Permission) string {
	return permissionEntry{Type: p.Type, Email: p.Email, Group: p.Group}.key()
}

// sameList says whether the service's list holds exactly the entries,
// compared as the service compares them (keys, as sets).
func sameList(saved []apiclient.Permission, entries []permissionEntry) bool {
	want := map[string]bool{}
	for _, e := range entries {
		want[e.key()] = true
	}
	got := map[string]bool{}
	for _, p := range saved {
		got[keyOf(p)] = true
	}
	if len(got) != len(want) {
		return false
	}
	for k := range got {
		if !want[k] {
			return false
		}
	}
	return true
}

// permissionsToSend is the list collection.setPermissions receives. With
// notify, only the entries the current list lacks carry notifyViaEmail:
// spec, rule 7, "notifyViaEmail true sends notification emails during this
// call only" and "A repeat call with true can send again", so an entry
// already saved is sent without it and nobody is e-mailed twice for it.
// current nil (not read) notifies every entry.
func permissionsToSend(entries []permissionEntry, notify bool, current []apiclient.Permission) []apiclient.Permission {
	held := map[string]bool{}
	for _, p := range current {
		held[keyOf(p)] = true
	}
	out := permissionsToAPI(entries, false)
	for i, e := range entries {
		out[i].NotifyViaEmail = notify && !held[e.key()]
	}
	return out
}

// refreshedEntries is what the state holds after reading the saved list:
// the configured entries (prior) the service skipped at the last apply
// (skipped) stay in the list and in skipped as long as they are still
// missing, so that a list saved as applied shows no change; anything else
// the service lists is taken as it is (drift). An email keeps the prior
// spelling when only its letter case differs.
func refreshedEntries(prior, skipped []permissionEntry, saved []apiclient.Permission) (list, stillSkipped []permissionEntry) {
	list = permissionsFromAPI(saved, prior)
	held := map[string]bool{}
	for _, e := range list {
		held[e.key()] = true
	}
	for _, e := range skipped {
		if !held[e.key()] {
			held[e.key()] = true
			list = append(list, e)
			stillSkipped = append(stillSkipped, e)
		}
	}
	return list, stillSkipped
}

// entriesOfSkipped is the entries of skipped, in order.
func entriesOfSkipped(skipped []skippedPermission) []permissionEntry {
	out := make([]permissionEntry, 0, len(skipped))
	for _, s := range skipped {
		out = append(out, s.Entry)
	}
	return out
}

// permissionAttrTypes is one access row in Terraform: shared by the resource
// and the flipbook_permissions data source.
var permissionAttrTypes = map[string]attr.Type{
	"type":  types.StringType,
	"email": types.StringType,
	"group": types.StringType,
}

// entriesFromSet reads the permissions set; elems[i] is entries[i]'s
// Terraform value, for attribute paths.
func entriesFromSet(set types.Set, diags *diag.Diagnostics) ([]permissionEntry, []attr.Value) {
	elems := set.Elements()
	entries := make([]permissionEntry, 0, len(elems))
	for _, el := range elems {
		obj, ok := el.(types.Object)
		if !ok {
			diags.AddError("Unexpected Permission Value", fmt.Sprintf("Expected an object, got %T. This is a bug in the provider; please report it.", el))
			return nil, nil
		}
		var e permissionEntry
		for name, v := range obj.Attributes() {
			s, ok := v.(types.String)
			if !ok {
				diags.AddError("Unexpected Permission Value", fmt.Sprintf("Expected a string for %s, got %T. This is a bug in the provider; please report it.", name, v))
				return nil, nil
			}
			if s.IsUnknown() {
				e.Unknown = true
				continue
			}
			if s.IsNull() {
				continue
			}
			switch name {
			case "type":
				e.Type, e.HasType = s.ValueString(), true
			case "email":
				e.Email, e.HasEmail = s.ValueString(), true
			case "group":
				e.Group, e.HasGroup = s.ValueString(), true
			}
		}
		entries = append(entries, e)
	}
	return entries, elems
}

// permissionObjects converts entries to Terraform objects.
func permissionObjects(entries []permissionEntry, diags *diag.Diagnostics) []attr.Value {
	out := make([]attr.Value, 0, len(entries))
	opt := func(s string, has bool) types.String {
		if !has {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	for _, e := range entries {
		obj, d := types.ObjectValue(permissionAttrTypes, map[string]attr.Value{
			"type":  types.StringValue(e.Type),
			"email": opt(e.Email, e.HasEmail),
			"group": opt(e.Group, e.HasGroup),
		})
		diags.Append(d...)
		out = append(out, obj)
	}
	return out
}

func setFromEntries(entries []permissionEntry, diags *diag.Diagnostics) types.Set {
	s, d := types.SetValue(types.ObjectType{AttrTypes: permissionAttrTypes}, permissionObjects(entries, diags))
	diags.Append(d...)
	return s
}

func emptyPermissionsSet() types.Set {
	return types.SetValueMust(types.ObjectType{AttrTypes: permissionAttrTypes}, []attr.Value{})
}

package provider

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

func teammateEmail(e string) permissionEntry {
	return permissionEntry{Type: "teammate", HasType: true, Email: e, HasEmail: true}
}

func permEntry(typ, email, group string) permissionEntry {
	return permissionEntry{Type: typ, HasType: typ != "", Email: email, HasEmail: email != "", Group: group, HasGroup: group != ""}
}

func TestValidatePermissions(t *testing.T) {
	cases := []struct {
		name    string
		entries []permissionEntry
		// want lists "index/field: fragment of the detail".
		want []string
	}{
		{"empty list is valid", nil, nil},
		{"bare teammate", []permissionEntry{permEntry("teammate", "", "")}, nil},
		{"teammate email and group entries", []permissionEntry{permEntry("teammate", "ana@example.com", ""), permEntry("teammate", "", "Sales")}, nil},
		{"otp with email", []permissionEntry{permEntry("otp", "x@example.org", "")}, nil},
		{"sso bare and group", []permissionEntry{permEntry("sso", "", ""), permEntry("sso", "", "Partners")}, nil},
		{"unknown type", []permissionEntry{permEntry("user", "", "")}, []string{"0/type: one of teammate, otp, sso"}},
		{"mixed types", []permissionEntry{permEntry("teammate", "", ""), permEntry("sso", "", "")}, []string{"-1/: mixes teammate, sso"}},
		{"email and group together", []permissionEntry{permEntry("teammate", "ana@example.com", "Sales")}, []string{"0/: both email and group"}},
		{"otp without email", []permissionEntry{permEntry("otp", "", "")}, []string{"0/email: requires an email"}},
		{"otp with group", []permissionEntry{permEntry("otp", "", "Sales")}, []string{"0/group: takes no group", "0/email: requires an email"}},
		{"sso with email", []permissionEntry{permEntry("sso", "ana@example.com", "")}, []string{"0/email: takes no email"}},
		{"bad email only warns", []permissionEntry{permEntry("teammate", "ana@", "")}, []string{"0/email: warning: email address"}},
		{"email without @ is refused", []permissionEntry{permEntry("otp", "not-an-email", "")}, []string{`0/email: "not-an-email" is not an email address: it has no "@"`}},
		{"email with two @ only warns", []permissionEntry{permEntry("otp", "a@b@example.com", "")}, []string{"0/email: warning: guess"}},
		{"email without dot domain only warns", []permissionEntry{permEntry("otp", "ana@localhost", "")}, []string{"0/email: warning: guess"}},
		{"emails of every form plan cleanly", []permissionEntry{permEntry("otp", "ana+news@example.xn--p1ai", ""),
			permEntry("otp", "jörg@müller.de", ""), permEntry("otp", "ANA@EXAMPLE.COM", ""), permEntry("otp", "o'brien@example.ie", "")}, nil},
		{"empty group", []permissionEntry{{Type: "teammate", HasType: true, HasGroup: true}}, []string{"0/group: empty group"}},
		{"empty email", []permissionEntry{{Type: "teammate", HasType: true, HasEmail: true}}, []string{"0/email: empty email"}},
		{"duplicate ignoring case only warns", []permissionEntry{teammateEmail("Ana@Example.com"), teammateEmail("ana@example.com")},
			[]string{"1/: warning: letter case"}},
		{"groups differ by case are distinct", []permissionEntry{permEntry("teammate", "", "Sales"), permEntry("teammate", "", "sales")}, nil},
		{"unknown entry skipped", []permissionEntry{{Type: "otp", HasType: true, Unknown: true}}, nil},
		{"unknown entry still counts for one type", []permissionEntry{{Type: "otp", HasType: true, Unknown: true}, permEntry("sso", "", "")},
			[]string{"-1/: mixes otp, sso"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := validatePermissions(tc.entries)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems %+v, want %d %v", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				where, frag, _ := strings.Cut(w, ": ")
				warning := strings.HasPrefix(frag, "warning: ")
				frag = strings.TrimPrefix(frag, "warning: ")
				gotWhere := strings.Join([]string{strconv.Itoa(got[i].Index), got[i].Field}, "/")
				if gotWhere != where || !strings.Contains(got[i].Detail, frag) || got[i].Warning != warning {
					t.Errorf("problem %d = %s %q (warning %v), want %s containing %q (warning %v)", i, gotWhere, got[i].Detail, got[i].Warning, where, frag, warning)
				}
			}
		})
	}
}

func TestLooksLikeEmail(t *testing.T) {
	// The list: plus addressing, punycode and Unicode domains, upper
	// case, apostrophes all plan without a warning.
	good := []string{"ana@example.com", "A.B+c@sub.example.co", "ana+news@example.xn--p1ai", "jörg@müller.de",
		"ANA@EXAMPLE.COM", "o'brien@example.ie", "x@a-b.io", "ana@example.c", "ana@10.0.0.1"}
	bad := []string{"", "ana", "@example.com", "ana@", "ana@example", "ana@@example.com", "a@b@c.d"}
	for _, s := range good {
		if !looksLikeEmail(s) {
			t.Errorf("looksLikeEmail(%q) = false, want true", s)
		}
	}
	for _, s := range bad {
		if looksLikeEmail(s) {
			t.Errorf("looksLikeEmail(%q) = true, want false", s)
		}
	}
}

func TestAnswerIndex(t *testing.T) {
	cases := map[string]int{
		"Invalid email at index 2":                          2,
		"Permission at index 0 requires an email":           0,
		"Duplicate permission at index 7":                   -1, // beyond the 3 entries sent
		"Permissions cannot combine multiple types":         -1,
		"Invalid permission type at index 1 (got 'user')":   1,
		"SSO permission cannot include an email - use team": -1,
	}
	for msg, want := range cases {
		if got := answerIndex(msg, 3); got != want {
			t.Errorf("answerIndex(%q) = %d, want %d", msg, got, want)
		}
	}
}

func TestPermissionsToAPI(t *testing.T) {
	in := []permissionEntry{permEntry("teammate", "ana@example.com", ""), permEntry("teammate", "", "Sales")}
	got := permissionsToAPI(in, true)
	want := []apiclient.Permission{
		{Type: "teammate", Email: "ana@example.com", NotifyViaEmail: true},
		{Type: "teammate", Group: "Sales", NotifyViaEmail: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := permissionsToAPI(in, false); got[0].NotifyViaEmail || got[1].NotifyViaEmail {
		t.Fatalf("notify false still sent notifyViaEmail: %+v", got)
	}
	if got := permissionsToAPI(nil, false); got == nil || len(got) != 0 {
		t.Fatalf("an empty list must stay an empty, non-nil list (it clears access): %#v", got)
	}
}

func TestPermissionsFromAPIKeepsConfiguredCase(t *testing.T) {
	prior := []permissionEntry{teammateEmail("Ana@Example.com")}
	saved := []apiclient.Permission{
		{Type: "teammate", Email: "ana@example.com"},
		{Type: "teammate", Email: "BEN@example.com"},
	}
	got := permissionsFromAPI(saved, prior)
	want := []permissionEntry{teammateEmail("Ana@Example.com"), teammateEmail("BEN@example.com")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	// An otp entry with the same address is another row: it keeps the
	// service's spelling.
	got = permissionsFromAPI([]apiclient.Permission{{Type: "otp", Email: "ana@example.com"}}, prior)
	if got[0].Email != "ana@example.com" {
		t.Fatalf("spelling borrowed across types: %+v", got)
	}
	got = permissionsFromAPI([]apiclient.Permission{{Type: "sso"}, {Type: "sso", Group: "Partners"}}, nil)
	if !reflect.DeepEqual(got, []permissionEntry{permEntry("sso", "", ""), permEntry("sso", "", "Partners")}) {
		t.Fatalf("got %+v", got)
	}
}

func TestSkippedPermissions(t *testing.T) {
	sent := []permissionEntry{
		teammateEmail("Ana@Example.com"),
		teammateEmail("eve@example.com"),
		permEntry("teammate", "", "Nope"),
		permEntry("teammate", "", "Sales"),
	}
	saved := []apiclient.Permission{{Type: "teammate", Email: "ana@example.com"}, {Type: "teammate", Group: "Sales"}}
	got := skippedPermissions(sent, saved)
	if len(got) != 2 {
		t.Fatalf("got %+v, want eve and Nope", got)
	}
	if got[0].Entry.Email != "eve@example.com" || !strings.Contains(got[0].Reason, "not an accepted reader") {
		t.Errorf("first skipped = %+v", got[0])
	}
	if got[1].Entry.Group != "Nope" || !strings.Contains(got[1].Reason, `no group named "Nope"`) {
		t.Errorf("second skipped = %+v", got[1])
	}
	detail := describeSkipped("col-1", got, len(sent))
	for _, want := range []string{"col-1", `email = "eve@example.com"`, `group = "Nope"`, "without 2 of its 4", "skipped_permissions",
		"-replace=ADDRESS", "length(self.skipped_permissions) == 0"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}
	// Spec, rule 6: all skipped means nothing saved.
	held := []apiclient.Permission{{Type: "teammate", Group: "Sales"}}
	if d := describeAllSkipped("col-1", got, held); !strings.Contains(d, "saved nothing and collection col-1 keeps the list it had") ||
		!strings.Contains(d, "permissions = []") {
		t.Errorf("all-skipped detail:\n%s", d)
	}
	if s := skippedPermissions([]permissionEntry{permEntry("sso", "", "Ghosts")}, nil); len(s) != 1 || !strings.Contains(s[0].Reason, "SSO group") {
		t.Errorf("sso skip = %+v", s)
	}
}

func TestSameList(t *testing.T) {
	entries := []permissionEntry{teammateEmail("Ana@Example.com"), permEntry("teammate", "", "Sales")}
	cases := []struct {
		saved []apiclient.Permission
		want  bool
	}{
		{[]apiclient.Permission{{Type: "teammate", Group: "Sales"}, {Type: "teammate", Email: "ana@example.com"}}, true},
		{[]apiclient.Permission{{Type: "teammate", Group: "Sales"}}, false},
		{[]apiclient.Permission{{Type: "teammate", Group: "sales"}, {Type: "teammate", Email: "ana@example.com"}}, false},
		{[]apiclient.Permission{{Type: "teammate", Group: "Sales"}, {Type: "teammate", Email: "ana@example.com"}, {Type: "teammate"}}, false},
		{nil, false},
	}
	for i, tc := range cases {
		if got := sameList(tc.saved, entries); got != tc.want {
			t.Errorf("case %d: sameList = %v, want %v", i, got, tc.want)
		}
	}
	if !sameList(nil, nil) || !sameList([]apiclient.Permission{}, nil) {
		t.Error("two empty lists differ")
	}
}

// Spec, rule 7: "A repeat call with true can send again": only entries the
// saved list lacks carry notifyViaEmail.
func TestPermissionsToSend(t *testing.T) {
	entries := []permissionEntry{teammateEmail("Ana@Example.com"), permEntry("teammate", "", "Support"), teammateEmail("eve@example.com")}
	current := []apiclient.Permission{{Type: "teammate", Email: "ana@example.com"}}
	notified := func(ps []apiclient.Permission) []string {
		var out []string
		for _, p := range ps {
			if p.NotifyViaEmail {
				out = append(out, p.Email+p.Group)
			}
		}
		return out
	}
	if got := notified(permissionsToSend(entries, true, current)); !reflect.DeepEqual(got, []string{"Support", "eve@example.com"}) {
		t.Errorf("notified %v, want the entries not saved yet", got)
	}
	if got := notified(permissionsToSend(entries, false, current)); got != nil {
		t.Errorf("notified %v without notify_via_email", got)
	}
	if got := notified(permissionsToSend(entries, true, nil)); len(got) != 3 {
		t.Errorf("notified %v with nothing saved, want all three", got)
	}
	if got := permissionsToSend(entries, true, current); len(got) != 3 || got[1].Group != "Support" {
		t.Errorf("sent %+v, want the whole list", got)
	}
}

func TestRefreshedEntries(t *testing.T) {
	sales, eve, ben := permEntry("teammate", "", "Sales"), teammateEmail("Eve@Example.com"), teammateEmail("ben@example.com")
	prior := []permissionEntry{sales, eve}
	skipped := []permissionEntry{eve}
	keys := func(es []permissionEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.String())
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		name              string
		saved             []apiclient.Permission
		wantList, wantSkp []permissionEntry
	}{
		{"saved as applied: no change", []apiclient.Permission{{Type: "teammate", Group: "Sales"}}, prior, skipped},
		{"the skipped reader added outside", []apiclient.Permission{{Type: "teammate", Group: "Sales"}, {Type: "teammate", Email: "eve@example.com"}},
			prior, nil},
		{"a row added outside is drift", []apiclient.Permission{{Type: "teammate", Group: "Sales"}, {Type: "teammate", Email: "ben@example.com"}},
			[]permissionEntry{sales, ben, eve}, skipped},
		{"emptied outside is drift", nil, []permissionEntry{eve}, skipped},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			list, skp := refreshedEntries(prior, skipped, tc.saved)
			if !reflect.DeepEqual(keys(list), keys(tc.wantList)) || !reflect.DeepEqual(keys(skp), keys(tc.wantSkp)) {
				t.Errorf("got %v skipped %v, want %v skipped %v", keys(list), keys(skp), keys(tc.wantList), keys(tc.wantSkp))
			}
		})
	}
}

// The provider's "same entry" is the client's (apiclient.PermissionKey), on
// the case where the two used to differ: the letter case of type.
func TestPermissionEntryKeyIsTheClients(t *testing.T) {
	for _, e := range []permissionEntry{
		{Type: "Teammate", Email: "Ana@example.com"},
		{Type: "teammate", Email: "ana@example.com"},
		{Type: "sso", Group: "Partners"},
	} {
		if got, want := e.key(), apiclient.PermissionKey(apiclient.Permission{Type: e.Type, Email: e.Email, Group: e.Group}); got != want {
			t.Errorf("%v: provider key %q, client key %q", e, got, want)
		}
	}
	upper := []apiclient.Permission{{Type: "Teammate", Email: "ana@example.com"}}
	if sameList(upper, []permissionEntry{{Type: "teammate", Email: "ana@example.com"}}) {
		t.Error("a saved entry whose type differs in case is not the configured one")
	}
}

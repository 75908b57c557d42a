package engine

import (
	"reflect"
	"testing"
)

func TestParsePermissionsAccepts(t *testing.T) {
	cases := []struct {
		name string
		raw  string
		want []PermissionEntry
	}{
		{"empty list", `{"permissions":[]}`, []PermissionEntry{}},
		{"bare teammate", `{"permissions":[{"type":"teammate"}]}`,
			[]PermissionEntry{{Type: "teammate"}}},
		{"teammate email and group entries", `{"permissions":[
			{"type":"teammate","email":"Ana@Example.com"},
			{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`,
			[]PermissionEntry{{Type: "teammate", Email: "Ana@Example.com"}, {Type: "teammate", Group: "Sales", NotifyViaEmail: true}}},
		{"otp", `{"permissions":[{"type":"otp","email":"a.b+c@mail.example.co","notifyViaEmail":false}]}`,
			[]PermissionEntry{{Type: "otp", Email: "a.b+c@mail.example.co"}}},
		{"sso bare and with group", `{"permissions":[{"type":"sso"},{"type":"sso","group":"Partners"}]}`,
			[]PermissionEntry{{Type: "sso"}, {Type: "sso", Group: "Partners"}}},
		{"null fields are absent", `{"permissions":[{"type":"teammate","email":null,"group":null,"notifyViaEmail":null}]}`,
			[]PermissionEntry{{Type: "teammate"}}},
		// The spec defines no e-mail format; these are addresses people have.
		{"emails of every form", `{"permissions":[
			{"type":"otp","email":"ana+news@example.xn--p1ai"},
			{"type":"otp","email":"jörg@müller.de"},
			{"type":"otp","email":"ANA@EXAMPLE.COM"},
			{"type":"otp","email":"o'brien@example.ie"},
			{"type":"otp","email":"ana@10.0.0.1"}]}`,
			[]PermissionEntry{{Type: "otp", Email: "ana+news@example.xn--p1ai"}, {Type: "otp", Email: "jörg@müller.de"},
				{Type: "otp", Email: "ANA@EXAMPLE.COM"}, {Type: "otp", Email: "o'brien@example.ie"}, {Type: "otp", Email: "ana@10.0.0.1"}}},
		{"groups differing in case are distinct", `{"permissions":[{"type":"sso","group":"Sales"},{"type":"sso","group":"sales"}]}`,
			[]PermissionEntry{{Type: "sso", Group: "Sales"}, {Type: "sso", Group: "sales"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, bad := ParsePermissions(tc.raw)
			if bad != nil {
				t.Fatalf("unexpected failure: %v", bad)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParsePermissionsRejects(t *testing.T) {
	const payload = "Invalid permissions payload"
	cases := []struct {
		name string
		raw  string
		want []string
	}{
		{"empty parameter", ``, []string{payload}},
		{"not JSON", `{"permissions":[`, []string{payload}},
		{"trailing data", `{"permissions":[]} x`, []string{payload}},
		{"repeated root field", `{"permissions":[],"permissions":[{"type":"sso"}]}`, []string{payload}},
		{"repeated entry field", `{"permissions":[{"type":"sso","type":"otp","email":"a@b.co"}]}`, []string{payload}},
		{"array at the root", `[{"type":"teammate"}]`, []string{payload}},
		{"no permissions field", `{}`, []string{payload}},
		{"inner permissions not an array", `{"permissions":{"type":"teammate"}}`, []string{payload}},
		{"inner permissions null", `{"permissions":null}`, []string{payload}},
		{"extra root field", `{"permissions":[],"notifyViaEmail":true}`, []string{payload}},
		{"entry not an object", `{"permissions":[{"type":"otp"},"teammate"]}`, []string{payload}},

		{"unknown type", `{"permissions":[{"type":"user","email":"a@b.co"}]}`,
			[]string{"Invalid permission type at index 0 (got 'user')"}},
		{"type is a group name", `{"permissions":[{"type":"teammate"},{"type":"group"}]}`,
			[]string{"Invalid permission type at index 1 (got 'group')"}},
		{"type missing", `{"permissions":[{"email":"a@b.co"}]}`,
			[]string{"Invalid permission type at index 0 (got '')"}},
		{"type not a string", `{"permissions":[{"type":7}]}`,
			[]string{"Invalid permission type at index 0 (got '7')"}},
		{"type case matters", `{"permissions":[{"type":"OTP","email":"a@b.co"}]}`,
			[]string{"Invalid permission type at index 0 (got 'OTP')"}},

		{"mixed types", `{"permissions":[{"type":"teammate"},{"type":"sso"},{"type":"otp","email":"a@b.co"}]}`,
			[]string{"Permissions cannot combine multiple types"}},
		{"mixed types reported first", `{"permissions":[{"type":"teammate","email":"bad"},{"type":"sso"}]}`,
			[]string{"Permissions cannot combine multiple types", "Invalid email at index 0"}},

		{"email and group", `{"permissions":[{"type":"teammate","email":"a@b.co","group":"Sales"}]}`,
			[]string{"Permission at index 0 cannot have both email and group"}},
		{"group on otp", `{"permissions":[{"type":"otp","email":"a@b.co"},{"type":"otp","group":"Sales"}]}`,
			[]string{"Permission at index 1 cannot have group (type=otp; group allowed only on teammate/sso)",
				"Permission at index 1 requires an email"}},
		{"otp email and group", `{"permissions":[{"type":"otp","email":"a@b.co","group":"Sales"}]}`,
			[]string{"Permission at index 0 cannot have both email and group",
				"Permission at index 0 cannot have group (type=otp; group allowed only on teammate/sso)"}},
		{"otp without email", `{"permissions":[{"type":"otp"}]}`,
			[]string{"Permission at index 0 requires an email"}},
		{"sso with email, once for two entries", `{"permissions":[{"type":"sso","email":"a@b.co"},{"type":"sso","email":"c@d.co"}]}`,
			[]string{"SSO permission cannot include an email - use teammate or user for per-email access"}},

		{"email without at", `{"permissions":[{"type":"otp","email":"ana.example.com"}]}`, []string{"Invalid email at index 0"}},
		{"email with space", `{"permissions":[{"type":"otp","email":"ana maria@example.com"}]}`, []string{"Invalid email at index 0"}},
		{"email without domain dot", `{"permissions":[{"type":"otp","email":"ana@localhost"}]}`, []string{"Invalid email at index 0"}},
		{"email with two at", `{"permissions":[{"type":"otp","email":"a@b@example.com"}]}`, []string{"Invalid email at index 0"}},
		{"email with empty label", `{"permissions":[{"type":"otp","email":"ana@example..com"}]}`, []string{"Invalid email at index 0"}},
		{"email with control character", "{\"permissions\":[{\"type\":\"otp\",\"email\":\"ana\\u0007@example.com\"}]}", []string{"Invalid email at index 0"}},
		{"email with empty local part", `{"permissions":[{"type":"otp","email":"@example.com"}]}`, []string{"Invalid email at index 0"}},
		{"email with trailing dot", `{"permissions":[{"type":"otp","email":"ana@example."}]}`, []string{"Invalid email at index 0"}},
		{"email empty", `{"permissions":[{"type":"teammate","email":""}]}`, []string{"Invalid email at index 0"}},
		{"email not a string", `{"permissions":[{"type":"teammate","email":5}]}`, []string{"Invalid email at index 0"}},

		{"duplicate ignoring email case", `{"permissions":[{"type":"otp","email":"ana@example.com"},{"type":"otp","email":"b@example.com"},{"type":"otp","email":"ANA@example.com"}]}`,
			[]string{"Duplicate permission at index 2"}},
		{"duplicate group", `{"permissions":[{"type":"teammate","group":"Sales"},{"type":"teammate","group":"Sales","notifyViaEmail":true}]}`,
			[]string{"Duplicate permission at index 1"}},
		{"duplicate bare entry", `{"permissions":[{"type":"sso"},{"type":"sso"},{"type":"sso"}]}`,
			[]string{"Duplicate permission at index 1", "Duplicate permission at index 2"}},

		{"an entry with its own error is no duplicate", `{"permissions":[{"type":"sso"},{"type":"sso","email":"a@b.co"},{"type":"sso","email":"c@d.co"},{"type":"sso","group":"G","notifyViaEmail":1},{"type":"sso","group":"G","notifyViaEmail":"no"}]}`,
			[]string{"SSO permission cannot include an email - use teammate or user for per-email access", "Invalid permissions format."}},
		{"notifyViaEmail string", `{"permissions":[{"type":"teammate","notifyViaEmail":"true"}]}`, []string{"Invalid permissions format."}},
		{"notifyViaEmail number, once for two entries", `{"permissions":[{"type":"teammate","notifyViaEmail":1},{"type":"teammate","group":"S","notifyViaEmail":0}]}`,
			[]string{"Invalid permissions format."}},
		{"group not a string", `{"permissions":[{"type":"sso","group":["Sales"]}]}`, []string{"Invalid permissions format."}},
		{"group empty", `{"permissions":[{"type":"teammate","group":""}]}`, []string{"Invalid permissions format."}},
		{"unknown entry field", `{"permissions":[{"type":"teammate","emial":"a@b.co"}]}`, []string{"Invalid permissions format."}},

		{"errors of several entries in index order", `{"permissions":[
			{"type":"otp"},
			{"type":"otp","email":"bad"},
			{"type":"otp","email":"x@y.co","notifyViaEmail":"yes"},
			{"type":"otp","email":"ok@y.co"},
			{"type":"otp","email":"OK@y.co"}]}`,
			[]string{"Permission at index 0 requires an email", "Invalid email at index 1",
				"Invalid permissions format.", "Duplicate permission at index 4"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, bad := ParsePermissions(tc.raw)
			if got != nil {
				t.Errorf("entries returned with a failure: %+v", got)
			}
			assertInvalid(t, bad, tc.want)
		})
	}
}

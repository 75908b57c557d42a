package emulator

import (
	"reflect"
	"testing"
)

func setPerms(c *testClient, hash, payload string) envelope {
	c.t.Helper()
	return c.get(map[string]string{"action": "collection.setPermissions", "collectionHash": hash, "permissions": payload})
}

// TestPermissionMessages sends every case of the spec's permissions table
// through the HTTP API.
func TestPermissionMessages(t *testing.T) {
	fx := fastFixture()
	fx.Accounts = append(fx.Accounts, AccountFixture{
		APIKey: "sso-off-key", Secret: "s", Plan: PlanFixture{OTP: true, SSO: true},
		Collections: []CollectionFixture{{CollectionHash: "sso-off-1", Status: "unlisted", Private: true, PageCount: 1}},
	})
	fx.Accounts[1].Collections[0].Private = true
	srv, c := startTest(t, fx)
	other := newTestClient(t, srv)
	other.key, other.secret = "other-key", "other-secret"
	ssoOff := newTestClient(t, srv)
	ssoOff.key, ssoOff.secret = "sso-off-key", "s"

	cases := []struct {
		name    string
		c       *testClient
		hash    string
		payload string
		want    []string
	}{
		{"not JSON", c, "pub-private-1", `{"permissions":`, []string{"Invalid permissions payload"}},
		{"not an array", c, "pub-private-1", `{"permissions":{"type":"otp"}}`, []string{"Invalid permissions payload"}},
		{"unknown type", c, "pub-private-1", `{"permissions":[{"type":"user","email":"ana@example.com"}]}`, []string{"Invalid permission type at index 0 (got 'user')"}},
		{"mixed types", c, "pub-private-1", `{"permissions":[{"type":"teammate"},{"type":"sso"}]}`, []string{"Permissions cannot combine multiple types"}},
		{"email and group", c, "pub-private-1", `{"permissions":[{"type":"teammate","email":"ana@example.com","group":"Sales"}]}`, []string{"Permission at index 0 cannot have both email and group"}},
		{"group on otp", c, "pub-private-1", `{"permissions":[{"type":"otp","email":"x@example.com"},{"type":"otp","group":"Sales"}]}`, []string{"Permission at index 1 cannot have group (type=otp; group allowed only on teammate/sso)", "Permission at index 1 requires an email"}},
		{"otp without email", c, "pub-private-1", `{"permissions":[{"type":"otp"}]}`, []string{"Permission at index 0 requires an email"}},
		{"sso with email", c, "pub-private-1", `{"permissions":[{"type":"sso","email":"ana@example.com"}]}`, []string{"SSO permission cannot include an email - use teammate or user for per-email access"}},
		{"bad email", c, "pub-private-1", `{"permissions":[{"type":"otp","email":"not-an-email"}]}`, []string{"Invalid email at index 0"}},
		{"duplicate", c, "pub-private-1", `{"permissions":[{"type":"teammate","group":"Sales"},{"type":"teammate","group":"Sales"}]}`, []string{"Duplicate permission at index 1"}},
		{"notify not boolean", c, "pub-private-1", `{"permissions":[{"type":"teammate","notifyViaEmail":"yes"}]}`, []string{"Invalid permissions format."}},
		{"otp plan", other, "other-private-1", `{"permissions":[{"type":"otp","email":"x@example.com"}]}`, []string{"OTP permissions are not available on your plan"}},
		{"sso plan", other, "other-private-1", `{"permissions":[{"type":"sso"}]}`, []string{"SSO permissions are not available on your plan"}},
		{"sso disabled", ssoOff, "sso-off-1", `{"permissions":[{"type":"sso","group":"Partners"}]}`, []string{"SSO is not enabled for this workspace"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := setPerms(tc.c.with(t), tc.hash, tc.payload)
			wantCode(t, env, 40, "Bad Request")
			if got := env.errors(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("errors %q, want %q", got, tc.want)
			}
		})
	}
	// Nothing was saved by the failures.
	env := c.get(get("collection.getPermissions", "pub-private-1"))
	wantCode(t, env, 20, "OK")
	if string(env.Data) != `{"permissions":[]}` {
		t.Fatalf("after failures: %s", env.Data)
	}
}

func TestPermissionsSaveSkipNotify(t *testing.T) {
	srv, c := startTest(t, nil)
	payload := `{"permissions":[
		{"type":"teammate","group":"Sales","notifyViaEmail":true},
		{"type":"teammate","group":"Nope","notifyViaEmail":true},
		{"type":"teammate","email":"EVE@example.com"},
		{"type":"teammate","email":"Chloe@Example.com","notifyViaEmail":true},
		{"type":"teammate","email":"nobody@example.com"},
		{"type":"teammate","group":"Empty"}]}`
	env := setPerms(c, "pub-private-1", payload)
	wantCode(t, env, 20, "OK")
	want := `{"permissions":[{"type":"teammate","group":"Sales"},{"type":"teammate","email":"Chloe@Example.com"},{"type":"teammate","group":"Empty"}]}`
	if string(env.Data) != want {
		t.Fatalf("saved %s\nwant  %s", env.Data, want)
	}
	env = c.get(get("collection.getPermissions", "pub-private-1"))
	if string(env.Data) != want {
		t.Fatalf("read back %s", env.Data)
	}
	var to []string
	for _, n := range srv.Emulator.Notifications() {
		to = append(to, n.Email)
	}
	// Sales has ana and ben accepted (eve is not accepted); chloe by address.
	if !reflect.DeepEqual(to, []string{"ana@example.com", "ben@example.com", "chloe@example.com"}) {
		t.Fatalf("notified %v", to)
	}

	// A bare teammate entry notifies every accepted reader; the same call again notifies again.
	for i := 0; i < 2; i++ {
		wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[{"type":"teammate","notifyViaEmail":true}]}`), 20, "OK")
	}
	if n := len(srv.Emulator.Notifications()); n != 3+2*4 {
		t.Fatalf("%d notifications, want 11", n)
	}

	// Spec, rule 6: "When all entries are skipped, nothing is saved and
	// `permissions` is an empty array": the answer is [] and the list the
	// collection had (the bare teammate entry) stays.
	env = setPerms(c, "pub-private-1", `{"permissions":[{"type":"sso","group":"Ghosts"}]}`)
	if string(env.Data) != `{"permissions":[]}` {
		t.Fatalf("all skipped: %s", env.Data)
	}
	env = c.get(get("collection.getPermissions", "pub-private-1"))
	if string(env.Data) != `{"permissions":[{"type":"teammate"}]}` {
		t.Fatalf("after all skipped, read back %s; want the list saved before", env.Data)
	}
	// "An empty array removes all private access rows."
	wantCode(t, setPerms(c, "pub-private-1", `{"permissions":[]}`), 20, "OK")
	env = c.get(get("collection.getPermissions", "pub-private-1"))
	if string(env.Data) != `{"permissions":[]}` {
		t.Fatalf("after an empty list, read back %s", env.Data)
	}
	env = setPerms(c, "pub-private-1", `{"permissions":[{"type":"otp","email":"guest@outside.org","notifyViaEmail":true}]}`)
	if string(env.Data) != `{"permissions":[{"type":"otp","email":"guest@outside.org"}]}` {
		t.Fatalf("otp: %s", env.Data)
	}
	last := srv.Emulator.Notifications()
	if last[len(last)-1].Email != "guest@outside.org" || last[len(last)-1].CollectionHash != "pub-private-1" {
		t.Fatalf("otp notification %+v", last[len(last)-1])
	}

	// The control endpoint shows the same list.
	var viaHTTP []Notification
	if status := controlDo(t, "GET", srv.URL+"/_emulator/notifications", "", &viaHTTP); status != 200 || !reflect.DeepEqual(viaHTTP, last) {
		t.Fatalf("GET /_emulator/notifications: %d %v", status, viaHTTP)
	}
}

// Eligibility follows the control endpoint's access changes.
func TestPermissionEligibilityFollowsAccess(t *testing.T) {
	srv, c := startTest(t, nil)
	yes := true
	if err := srv.Emulator.SetAccess("pub-private-1", nil, &yes, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.get(get("collection.getPermissions", "pub-private-1")), 48, "Permissions are only available for published private flipbooks")
	no := false
	status := "public"
	if err := srv.Emulator.SetAccess("pub-private-1", nil, &no, &status); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.get(get("collection.getPermissions", "pub-private-1")), 20, "OK")
	if err := srv.Emulator.SetAccess("pub-private-1", nil, nil, ptr("bogus")); err == nil {
		t.Fatal("bogus status accepted")
	}
}

func ptr[T any](v T) *T { return &v }

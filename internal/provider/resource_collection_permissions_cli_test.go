package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// Issue 17, situations 3 and 4, and the advice for a reader who accepts
// later, run as a user runs them: the real CLI in a working directory, with
// the commands the warning and the docs give, word for word. The reader's
// acceptance is the emulator restarted on the same state file with a fixture
// in which she has accepted (accounts and readers always come from the
// fixture; collections and their lists from the state file).
func TestCLICollectionPermissions_readerAccepts(t *testing.T) {
	g := newGuideEnv(t)
	t.Parallel()
	stateFile := filepath.Join(t.TempDir(), "emulator-state.json")
	start := func(eveAccepted bool) *emulator.Server {
		fx := testFixture(t)
		for i, r := range fx.Accounts[0].Readers {
			if r.Email == "eve@example.com" {
				fx.Accounts[0].Readers[i].Accepted = eveAccepted
			}
		}
		srv, err := emulator.Start(emulator.Options{Fixture: fx, StateFile: stateFile})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		return srv
	}
	w := &guideWorkspace{t: t, g: g, dir: t.TempDir()}
	use := func(srv *emulator.Server) {
		w.srv = srv
		w.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+g.cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
			"FLIPBOOK_API_KEY="+testAPIKey, "FLIPBOOK_API_SECRET="+testSecret,
			"FLIPBOOK_BASE_URL="+srv.BaseURL, "FLIPBOOK_UPLOAD_URL="+srv.UploadURL)
	}
	use(start(false))
	const hash = "col-private"
	writeFile(t, filepath.Join(w.dir, "main.tf"), `terraform {
  required_providers {
    flipbook = { source = "flipbook/flipbook" }
  }
}

resource "flipbook_collection_permissions" "handbook" {
  collection_hash  = "`+hash+`"
  notify_via_email = true
  permissions = [
    { type = "teammate", group = "Sales" },
    { type = "teammate", email = "eve@example.com" },
  ]
}
`)
	sets := func() int {
		n := 0
		for _, c := range w.srv.Emulator.Requests()[apiclient.ActionSetPermissions] {
			n += c
		}
		return n
	}
	notified := func() []string {
		var out []string
		for _, n := range w.srv.Emulator.Notifications() {
			if n.CollectionHash == hash {
				out = append(out, n.Email)
			}
		}
		slices.Sort(out)
		return out
	}
	saved := func() []emulator.PermissionView {
		c, err := w.srv.Emulator.Collection(hash)
		if err != nil {
			t.Fatal(err)
		}
		return c.Permissions
	}
	expect := func(what string, wantSets int, wantNotified []string, wantSaved ...emulator.PermissionView) {
		t.Helper()
		if got := sets(); got != wantSets {
			t.Errorf("%s: %d setPermissions calls, want %d", what, got, wantSets)
		}
		if got := notified(); !slices.Equal(got, wantNotified) {
			t.Errorf("%s: e-mailed %v, want %v", what, got, wantNotified)
		}
		if got := saved(); !sameEntries(got, wantSaved) {
			t.Errorf("%s: the collection's list is %v, want %v", what, got, wantSaved)
		}
	}
	sales := emulator.PermissionView{Type: "teammate", Group: "Sales"}
	salesReaders := []string{"ana@example.com", "ben@example.com"}

	// eve has not accepted: the apply succeeds with a warning that names
	// her and says what to do; Sales's readers are e-mailed once.
	out := w.tf("apply", "-auto-approve", "-input=false")
	for _, want := range []string{"Warning: Access List Entries Skipped", `email = "eve@example.com"`, "not an accepted reader",
		"terraform apply -replace=ADDRESS", "length(self.skipped_permissions) == 0"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the apply's output lacks %q:\n%s", want, out)
		}
	}
	expect("first apply", 1, salesReaders, sales)

	// Later plans are empty (exit code 0), and still say eve is skipped;
	// a later apply sends nothing and e-mails nobody.
	out, err := w.tfErr("plan", "-input=false", "-detailed-exitcode")
	if err != nil || !strings.Contains(out, "Access List Entries Still Skipped") || !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the apply is not empty with a warning (%v):\n%s", err, out)
	}
	if out = w.tf("apply", "-auto-approve", "-input=false"); !strings.Contains(out, "No changes.") {
		t.Errorf("a second apply changed something:\n%s", out)
	}
	expect("second apply", 1, salesReaders, sales)

	// eve accepts. The advice, literally: the README's command (its
	// example resource is this one), and the resource page's command for
	// its own example is the same with that resource's name. The list is
	// sent once, never emptied, and only eve is e-mailed.
	use(start(true))
	args := adviceCommand(t, "../../README.md", "handbook")
	adviceCommand(t, "../../docs/resources/collection_permissions.md", "example")
	out = w.tf(append(args[1:2], append([]string{"-auto-approve", "-input=false"}, args[2:]...)...)...)
	if !strings.Contains(out, "1 added, 0 changed, 1 destroyed") || strings.Contains(out, "Access List Entries Skipped") {
		t.Errorf("the apply -replace did not replace cleanly:\n%s", out)
	}
	// Terraform shows the plan's warning, which cannot know of -replace: it
	// must not say the opposite of what this run does.
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "Access List Entries Still Skipped") &&
		!strings.Contains(flat, "a run with -replace of this resource does, once") {
		t.Errorf("the -replace run's warning says the entries are not sent:\n%s", out)
	}
	eve := emulator.PermissionView{Type: "teammate", Email: "eve@example.com"}
	expect("apply -replace after eve accepted", 1, []string{"eve@example.com"}, sales, eve)
	// The plan's refresh reads the list once, and the create once before
	// sending it; the notifying send takes that read as the list before
	// instead of reading it again.
	reads := 0
	for _, n := range w.srv.Emulator.Requests()[apiclient.ActionGetPermissions] {
		reads += n
	}
	if reads != 2 {
		t.Errorf("apply -replace: %d getPermissions calls, want 2 (the refresh, and the read before the send)", reads)
	}
	w.emptyPlan()

	// Destroying still empties the list.
	w.tf("destroy", "-auto-approve", "-input=false")
	expect("destroy", 2, []string{"eve@example.com"})
}

// adviceCommand finds in a document the command that adds a skipped reader
// who accepted, checks that it names the document's example resource, and
// returns its words.
func adviceCommand(t *testing.T, doc, resource string) []string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`terraform apply -replace=flipbook_collection_permissions\.([a-z_]+)`).FindSubmatch(b)
	if m == nil || string(m[1]) != resource {
		t.Fatalf("%s gives no `terraform apply -replace=` for its example resource %q (found %q)", doc, resource, m)
	}
	return strings.Fields(string(m[0]))
}

package provider

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// Day two: what users do to our objects long after the first apply (publish
// them in the web editor, press Ctrl-C, delete them in the web application,
// import them, edit a PDF) and what every diagnostic and document then tells
// them to do, done word for word through the real CLI. Each test counts on
// the emulator what happened: one collection per resource, one item per
// document, no e-mail nobody asked for.

// dayTwoCatalog is a catalog with everything attached to it; published is
// HCL added to the catalog block (a published_hash line, or "").
func dayTwoCatalog(published string) string {
	return fmt.Sprintf(`
resource "flipbook_catalog" "shoes" {
  title = "Shoes"
  %s
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}

resource "flipbook_collection_logo" "brand" {
  collection_hash = flipbook_catalog.shoes.id
  file            = "${path.module}/logo.png"
}

resource "flipbook_collection_background" "none" {
  collection_hash = flipbook_catalog.shoes.id
}

resource "flipbook_document" "manual" {
  collection_hash = flipbook_catalog.shoes.id
  file            = "${path.module}/manual.pdf"
}

resource "flipbook_collection_permissions" "sales" {
  collection_hash  = flipbook_catalog.shoes.id
  notify_via_email = true
  permissions = [
    { type = "teammate", group = "Sales" },
    { type = "teammate", email = "eve@example.com" }, # has not accepted: skipped
  ]
}
`, published)
}

// writeCalls are the counts of every call that makes or changes something.
type writeCalls map[string]int

var writeActions = []string{
	apiclient.ActionCreateCatalog, apiclient.ActionCreateFromTemplate, apiclient.ActionAddFlipbook,
	apiclient.ActionSetLogo, apiclient.ActionDeleteBackgroundImage, apiclient.ActionSetPermissions,
}

func (e *testEmulator) writes() writeCalls {
	out := writeCalls{}
	for _, a := range writeActions {
		out[a] = calls(e, a)
	}
	return out
}

// sameWrites fails the test when any write happened since before.
func sameWrites(t *testing.T, e *testEmulator, before writeCalls, when string) {
	t.Helper()
	for a, n := range e.writes() {
		if n != before[a] {
			t.Errorf("%s: %s was called %d times, %d before", when, a, n, before[a])
		}
	}
}

// appliedDayTwo applies dayTwoCatalog and returns the catalog's hash and the
// write counts, which it checks: one of each.
func appliedDayTwo(t *testing.T, e *testEmulator, w *cliWorkspace) (string, writeCalls) {
	t.Helper()
	writeTestPNG(t, w.dir, "logo.png", 4, 4, color.RGBA{R: 200, A: 255})
	writeTestPDF(t, w.dir, "manual.pdf", 2)
	w.config(dayTwoCatalog(""))
	w.apply()
	before := e.writes()
	for _, a := range writeActions {
		if want := map[bool]int{true: 0, false: 1}[a == apiclient.ActionCreateFromTemplate]; before[a] != want {
			t.Fatalf("first apply: %s called %d times, want %d", a, before[a], want)
		}
	}
	return w.stateString("flipbook_catalog.shoes", "id"), before
}

// publish publishes hash as the web editor does and returns the new hash.
func publish(t *testing.T, e *testEmulator, hash string) string {
	t.Helper()
	published, err := e.Emulator.Publish(hash)
	if err != nil {
		t.Fatal(err)
	}
	return published
}

// movedInPlace checks that every resource followed the catalog to hash with
// nothing made twice, nobody e-mailed again and an empty plan after.
func movedInPlace(t *testing.T, e *testEmulator, w *cliWorkspace, hash string, before writeCalls, mailsBefore int) {
	t.Helper()
	sameWrites(t, e, before, "after the move")
	if n := e.generatedCollections(); n != 1 {
		t.Errorf("%d generated collections in the account, want 1", n)
	}
	col := e.collection(t, hash)
	if len(col.Items) != 2 { // the catalog's own item and the document
		t.Errorf("collection %s has %d items, want 2 (nothing uploaded again): %+v", hash, len(col.Items), col.Items)
	}
	if len(col.Permissions) != 1 {
		t.Errorf("collection %s's access list is %+v, want the Sales row", hash, col.Permissions)
	}
	if n := len(e.Emulator.Notifications()); n != mailsBefore {
		t.Errorf("%d e-mails sent in all, %d before the move: nobody asked for more", n, mailsBefore)
	}
	if got := w.stateString("flipbook_catalog.shoes", "id"); got != hash {
		t.Errorf("catalog id %q, want %q", got, hash)
	}
	for _, addr := range []string{"flipbook_collection_logo.brand", "flipbook_collection_background.none",
		"flipbook_document.manual", "flipbook_collection_permissions.sales"} {
		if got := w.stateString(addr, "collection_hash"); got != hash {
			t.Errorf("%s collection_hash %q, want %q", addr, got, hash)
		}
	}
	w.emptyPlan()
}

// Publishing in the web editor gives the catalog a new final hash. No plan
// or unattended apply makes anything again; the plan stops with the line to
// write, and writing it moves the catalog and everything on it in place.
func TestAccDayTwo_publishThenPublishedHash(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, before := appliedDayTwo(t, e, w)
	mails := len(e.Emulator.Notifications())
	published := publish(t, e, old)

	for _, cmd := range [][]string{{"plan", "-input=false"}, {"apply", "-input=false", "-auto-approve"}} {
		out := w.fails(cmd...)
		for _, want := range []string{"Flipbook Collection Hash No Longer Exists", old, "code 46"} {
			if !says(out, want) {
				t.Errorf("terraform %s does not say %q:\n%s", cmd[0], want, out)
			}
		}
		if !says(out, `published_hash = "<new hash>"`) {
			t.Errorf("terraform %s does not give the line to write:\n%s", cmd[0], out)
		}
	}
	sameWrites(t, e, before, "after publishing")

	// The advice, word for word: the line with the new hash.
	w.config(dayTwoCatalog(strings.Replace(`published_hash = "<new hash>"`, "<new hash>", published, 1)))
	w.apply()
	movedInPlace(t, e, w, published, before, mails)

	// Removing the line afterwards plans nothing either.
	w.config(dayTwoCatalog(""))
	w.emptyPlan()
}

// The CLI way the same error gives: forget the catalog and import its new
// hash; everything attached follows it in place on the next apply.
func TestAccDayTwo_publishThenStateRmAndImport(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, before := appliedDayTwo(t, e, w)
	mails := len(e.Emulator.Notifications())
	published := publish(t, e, old)
	out := w.fails("plan", "-input=false")
	if !says(out, "terraform state rm <address>, then terraform import <address> <new hash>") {
		t.Fatalf("the plan does not give the CLI way:\n%s", out)
	}
	w.must("state", "rm", "flipbook_catalog.shoes")
	w.must("import", "-input=false", "flipbook_catalog.shoes", published)
	w.apply()
	movedInPlace(t, e, w, published, before, mails)
}

// Ctrl-C while the catalog generates: the catalog stays in state untainted,
// and the next apply waits for the same generation instead of starting a
// second one.
func TestAccDayTwo_interruptedGeneration(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	e.Emulator.SetGenerationDelay(6 * time.Second)
	w := newCLIWorkspace(t, e)
	w.config(`
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`)
	out, err := w.interrupt(func() bool { return calls(e, apiclient.ActionCreateCatalog) > 0 },
		"apply", "-input=false", "-auto-approve")
	if err == nil {
		t.Errorf("an interrupted apply must not report success:\n%s", out)
	}
	for _, want := range []string{"Catalog Still Generating", "not tainted", "The next apply does not generate it again"} {
		if !says(out, want) {
			t.Errorf("the interrupted apply does not say %q:\n%s", want, out)
		}
	}
	if v, tainted := w.resource("flipbook_catalog.shoes"); v == nil || tainted {
		t.Fatalf("the catalog must stay in state, untainted (in state: %v, tainted: %v)", v != nil, tainted)
	}
	// As the warning says: apply again.
	w.apply()
	if n := calls(e, apiclient.ActionCreateCatalog); n != 1 {
		t.Errorf("createCatalog called %d times, want 1", n)
	}
	if n := e.generatedCollections(); n != 1 {
		t.Errorf("%d generated collections, want 1", n)
	}
	if st := w.stateString("flipbook_catalog.shoes", "status"); st == apiclient.CollectionProcessing {
		t.Errorf("status %q after the second apply: it must have waited for the generation", st)
	}
	w.emptyPlan()
}

// A create deadline while the catalog generates: a warning, no taint, and
// raising the timeout as the warning says makes the next apply wait.
func TestAccDayTwo_generationDeadline(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	e.Emulator.SetGenerationDelay(5 * time.Second)
	w := newCLIWorkspace(t, e)
	cfg := `
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
  timeouts = { create = %q }
}

data "flipbook_embed" "shoes" {
  collection_hash = flipbook_catalog.shoes.id
}
`
	w.config(fmt.Sprintf(cfg, "1s"))
	out := w.apply()
	for _, want := range []string{"Catalog Still Generating", "create deadline", "not tainted"} {
		if !says(out, want) {
			t.Errorf("the apply at the deadline does not say %q:\n%s", want, out)
		}
	}
	if _, tainted := w.resource("flipbook_catalog.shoes"); tainted {
		t.Fatal("a generation past the deadline must not taint the catalog")
	}
	// The apply that waits again, past the same deadline: a warning too.
	if out = w.apply(); !says(out, "Catalog Still Generating") || !says(out, "The create deadline (timeouts.create) passed") {
		t.Errorf("the second apply at the deadline does not warn as the first did:\n%s", out)
	}
	w.config(fmt.Sprintf(cfg, "30s"))
	plan := w.must("plan", "-input=false")
	if !says(plan, "update in-place") || strings.Contains(plan, "must be replaced") {
		t.Errorf("the plan after the deadline must wait in place:\n%s", plan)
	}
	w.apply()
	if n := calls(e, apiclient.ActionCreateCatalog); n != 1 {
		t.Errorf("createCatalog called %d times, want 1", n)
	}
	w.emptyPlan()
}

// A generation that failed after the wait was cut short is replaced, and the
// plan says that the failed collection stays in the account.
func TestAccDayTwo_cutShortGenerationThatFailed(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	e.Emulator.SetGenerationDelay(3 * time.Second)
	if err := e.Emulator.SetFaultsOn([]string{apiclient.ActionCreateCatalog}, 1, []string{"generation_failed"}); err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, e)
	w.config(`
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
  timeouts = { create = "1s" }
}
`)
	w.apply()
	failed := w.stateString("flipbook_catalog.shoes", "id")
	if err := e.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // the generation ends, failed
	plan := w.must("plan", "-input=false")
	for _, want := range []string{"Catalog Generation Failed", failed, "stays in the account", "must be replaced"} {
		if !says(plan, want) {
			t.Errorf("the plan does not say %q:\n%s", want, plan)
		}
	}
	w.config(`
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
  timeouts = { create = "1m" }
}
`)
	w.apply()
	if n := calls(e, apiclient.ActionCreateCatalog); n != 2 {
		t.Errorf("createCatalog called %d times, want 2 (the failed one, then its replacement)", n)
	}
	w.emptyPlan()
}

// Ctrl-C while a document converts: the document stays in state untainted
// and the next apply waits for the conversion: one upload, one item.
func TestAccDayTwo_interruptedConversion(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) {
		ms := int64(6000)
		f.Generation.ConversionDelayMs = &ms
	}))
	w := newCLIWorkspace(t, e)
	writeTestPDF(t, w.dir, "manual.pdf", 2)
	w.config(`
resource "flipbook_document" "manual" {
  collection_hash = "col-private"
  file            = "${path.module}/manual.pdf"
}
`)
	out, err := w.interrupt(func() bool { return calls(e, apiclient.ActionAddFlipbook) > 0 },
		"apply", "-input=false", "-auto-approve")
	if err == nil {
		t.Errorf("an interrupted apply must not report success:\n%s", out)
	}
	if !says(out, "Document Still Converting") {
		t.Errorf("the interrupted apply does not say what happens next:\n%s", out)
	}
	if v, tainted := w.resource("flipbook_document.manual"); v == nil || tainted {
		t.Fatalf("the document must stay in state, untainted (in state: %v, tainted: %v)", v != nil, tainted)
	}
	w.apply()
	if n := calls(e, apiclient.ActionAddFlipbook); n != 1 {
		t.Errorf("flipbook.add called %d times, want 1", n)
	}
	col := e.collection(t, "col-private")
	added := 0
	for _, it := range col.Items {
		if it.FlipbookHash == w.stateString("flipbook_document.manual", "id") {
			added++
			if it.ConvertStatus != apiclient.StatusComplete {
				t.Errorf("convert status %q", it.ConvertStatus)
			}
		}
	}
	if added != 1 {
		t.Errorf("the document is %d items of the collection, want 1", added)
	}
	if st := w.stateString("flipbook_document.manual", "convert_status"); st != apiclient.StatusComplete {
		t.Errorf("convert_status %q after the second apply", st)
	}
	w.emptyPlan()
}

// A collection deleted in the web application (code 43): plan, removal of
// one for_each instance and destroy all work with a warning, and nothing is
// made again.
func TestAccDayTwo_deletedInWebApplication(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	writeTestPNG(t, w.dir, "logo.png", 4, 4, color.RGBA{B: 200, A: 255})
	cfg := `
variable "keys" { type = set(string) }

resource "flipbook_catalog" "c" {
  for_each = var.keys
  title    = each.key
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}

resource "flipbook_collection_logo" "c" {
  for_each        = var.keys
  collection_hash = flipbook_catalog.c[each.key].id
  file            = "${path.module}/logo.png"
}

resource "flipbook_collection_permissions" "c" {
  for_each        = var.keys
  collection_hash = flipbook_catalog.c[each.key].id
  permissions     = [{ type = "teammate", group = "Sales" }]
}
`
	w.config(cfg)
	both, one := `-var=keys=["a","b"]`, `-var=keys=["b"]`
	w.apply(both)
	deleted := w.stateString(`flipbook_catalog.c["a"]`, "id")
	if err := e.Emulator.Delete(deleted); err != nil {
		t.Fatal(err)
	}
	before := e.writes()

	plan := w.must("plan", "-input=false", both)
	for _, want := range []string{"Flipbook Collection Refused", deleted, "remove its key"} {
		if !says(plan, want) {
			t.Errorf("the plan does not say %q:\n%s", want, plan)
		}
	}
	sameWrites(t, e, before, "after the plan")
	// The advice: remove the instance's key and apply.
	w.apply(one)
	for _, addr := range []string{`flipbook_catalog.c["a"]`, `flipbook_collection_logo.c["a"]`, `flipbook_collection_permissions.c["a"]`} {
		if v, _ := w.resource(addr); v != nil {
			t.Errorf("%s is still in the state", addr)
		}
	}
	if n := calls(e, apiclient.ActionCreateCatalog); n != 2 {
		t.Errorf("createCatalog called %d times, want 2", n)
	}
	w.must("plan", "-input=false", "-detailed-exitcode", one)

	// And a whole destroy of a workspace whose collection was deleted.
	kept := w.stateString(`flipbook_catalog.c["b"]`, "id")
	if err := e.Emulator.Delete(kept); err != nil {
		t.Fatal(err)
	}
	w.must("destroy", "-input=false", "-auto-approve", one)
	if n := e.generatedCollections(); n != 2 {
		t.Errorf("%d generated collections, want 2", n)
	}
}

// Credentials of another account (code 43 too) never make Terraform forget
// or re-create real collections: the plan warns and changes nothing, and
// with the right credentials again the plan is empty.
func TestAccDayTwo_otherAccountNeverForgets(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	cfg := `
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}

resource "flipbook_collection_permissions" "sales" {
  collection_hash = flipbook_catalog.shoes.id
  permissions     = [{ type = "teammate", group = "Sales" }]
}
`
	w.config(cfg)
	w.apply()
	before := e.writes()
	w.setAccount("stranger-key", "stranger-secret")
	out := w.must("plan", "-input=false", "-detailed-exitcode")
	if !says(out, "Flipbook Collection Refused") || !says(out, "api_key") {
		t.Errorf("the plan with another account's credentials does not warn:\n%s", out)
	}
	out = w.apply()
	if !says(out, "Flipbook Collection Refused") {
		t.Errorf("the apply does not warn:\n%s", out)
	}
	// A change that would replace the catalog stops the plan: with these
	// credentials the new one would be made in the other account.
	w.config(strings.Replace(cfg, `title    = "Shoes"`, `title    = "Shoes v2"`, 1))
	out = w.fails("plan", "-input=false")
	if !says(out, "Flipbook Collection Refused") || !says(out, "stops here") {
		t.Errorf("a replacement under another account's credentials does not stop the plan:\n%s", out)
	}
	w.fails("apply", "-input=false", "-auto-approve")
	w.config(cfg)
	sameWrites(t, e, before, "with another account's credentials")
	for _, addr := range []string{"flipbook_catalog.shoes", "flipbook_collection_permissions.sales"} {
		if v, _ := w.resource(addr); v == nil {
			t.Errorf("%s left the state", addr)
		}
	}
	w.setAccount(e.apiKey, e.secret)
	w.emptyPlan()
}

// Import reads the title the service reports: importing and then writing the
// real title plans nothing, a different title plans a replacement with its
// warning, and -generate-config-out writes the title.
func TestAccDayTwo_importReadsTitle(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	c := e.apiClient(t)
	hash, err := c.CreateCatalog(t.Context(), apiclient.CreateCatalogInput{Title: "Shoes 2026",
		Sections: []apiclient.Section{{Type: apiclient.SectionFeed, Sources: []apiclient.SourceRef{{SourceHash: "feed-shoes"}},
			Templates: []apiclient.TemplateRef{{TemplateHash: "tpl-product"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForGeneration(t.Context(), hash, nil); err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, e)
	w.config(fmt.Sprintf(`
import {
  to = flipbook_catalog.shoes
  id = %q
}
`, hash))
	// The plan stops at the sections, which the service cannot report (as
	// the README says); the file is written before it does.
	out := w.fails("plan", "-input=false", "-generate-config-out=generated.tf")
	if !says(out, "sections") {
		t.Errorf("the generated configuration's plan does not name the missing sections:\n%s", out)
	}
	generated, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`title\s+= "Shoes 2026"`).Match(generated) {
		t.Errorf("-generate-config-out does not write the title:\n%s", generated)
	}
	_ = os.Remove(filepath.Join(w.dir, "generated.tf"))

	block := func(title string) string {
		return fmt.Sprintf(`
resource "flipbook_catalog" "shoes" {
  %s
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`, title)
	}
	w.config(block(""))
	// An import of a hash that answers nothing fails rather than adopting it.
	if out := w.fails("import", "-input=false", "flipbook_catalog.shoes", "0000000000000000"); !says(out, "Cannot Import: Collection Not Found") ||
		!says(out, "import the new hash instead") || says(out, "run terraform plan") {
		t.Errorf("importing an unknown hash does not say so, or what to do:\n%s", out)
	}
	w.must("import", "-input=false", "flipbook_catalog.shoes", hash)
	if got := w.stateString("flipbook_catalog.shoes", "title"); got != "Shoes 2026" {
		t.Errorf("imported title %q, want the service's", got)
	}
	w.apply()
	w.config(block(`title = "Shoes 2026"`))
	w.emptyPlan()
	w.config(block(`title = "Sandals"`))
	plan := w.must("plan", "-input=false")
	for _, want := range []string{"must be replaced", "Replacement Keeps The Old Flipbook Collection", hash} {
		if !says(plan, want) {
			t.Errorf("a different title does not plan %q:\n%s", want, plan)
		}
	}
	if n := calls(e, apiclient.ActionCreateCatalog); n != 1 {
		t.Errorf("createCatalog called %d times, want 1", n)
	}
}

// Editing the PDF on disk plans a replacement that says, at plan time, that
// the old flipbook stays in the collection.
func TestAccDayTwo_editedPDFWarnsAtPlan(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	writeTestPDF(t, w.dir, "manual.pdf", 2)
	w.config(`
resource "flipbook_document" "manual" {
  collection_hash = "col-private"
  file            = "${path.module}/manual.pdf"
}
`)
	w.apply()
	old := w.stateString("flipbook_document.manual", "id")
	writeTestPDF(t, w.dir, "manual.pdf", 3)
	plan := w.must("plan", "-input=false")
	for _, want := range []string{"must be replaced", "Replacement Keeps The Old Document", old, "stays in collection col-private"} {
		if !says(plan, want) {
			t.Errorf("the plan does not say %q:\n%s", want, plan)
		}
	}
}

// A change of timeouts alone changes nothing on the service: every computed
// value stays known at plan time, nothing downstream changes, and the apply
// calls nothing. (A data source that refers to the resource is still read
// during apply: Terraform defers every data source whose dependencies have a
// pending change, whatever the provider plans.)
func TestAccDayTwo_timeoutsOnlyKeepsValuesKnown(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	cfg := `
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
  timeouts = { create = %q }
}

resource "terraform_data" "downstream" {
  input = [flipbook_catalog.shoes.page_count, flipbook_catalog.shoes.status, flipbook_catalog.shoes.cover_image]
}
`
	w.config(fmt.Sprintf(cfg, "30m"))
	w.apply()
	w.config(fmt.Sprintf(cfg, "45m"))
	plan := w.must("plan", "-input=false")
	if strings.Contains(plan, "known after apply") {
		t.Errorf("a timeouts-only change defers values:\n%s", plan)
	}
	if says(plan, "terraform_data.downstream will be") {
		t.Errorf("a timeouts-only change reaches a resource downstream:\n%s", plan)
	}
	if !says(plan, "update in-place") {
		t.Errorf("the plan does not update the timeouts:\n%s", plan)
	}
	e.Emulator.ResetRequests()
	w.apply()
	for _, a := range writeActions {
		if n := calls(e, a); n != 0 {
			t.Errorf("%s called %d times for a timeouts-only change", a, n)
		}
	}
	w.emptyPlan()
}

// says reports whether the CLI's output holds want, whatever the line
// breaks the CLI wrapped it with.
func says(out, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " "))
}

// A collection renamed in the web editor: with the title in the
// configuration the plan is a replacement that says the renamed one stays (the
// API cannot rename); without it the plan takes the new title and is empty.
func TestAccDayTwo_renamedInWebEditor(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	block := func(title string) string {
		return fmt.Sprintf(`
resource "flipbook_catalog" "shoes" {
  %s
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`, title)
	}
	w.config(block(`title = "Shoes"`))
	w.apply()
	hash := w.stateString("flipbook_catalog.shoes", "id")
	if err := e.Emulator.Rename(hash, "Shoes (final)"); err != nil {
		t.Fatal(err)
	}
	plan := w.must("plan", "-input=false")
	for _, want := range []string{"must be replaced", "Replacement Keeps The Old Flipbook Collection", hash} {
		if !says(plan, want) {
			t.Errorf("the plan after a rename does not say %q:\n%s", want, plan)
		}
	}
	w.config(block(""))
	w.emptyPlan()
	w.apply() // nothing to change; it stores what the refresh read
	if got := w.stateString("flipbook_catalog.shoes", "title"); got != "Shoes (final)" {
		t.Errorf("title %q in state, want the service's", got)
	}
	if n := calls(e, apiclient.ActionCreateCatalog); n != 1 {
		t.Errorf("createCatalog called %d times, want 1", n)
	}
}

// A document whose conversion failed is uploaded again; the collection it
// was added to, whose own generation went well, is not generated again
// (flipbookStatus is "failed" for the collection as a whole then).
func TestAccDayTwo_failedConversionKeepsCollection(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	writeTestPDF(t, w.dir, "manual.pdf", 2)
	w.config(`
resource "flipbook_template_collection" "t" {
  title    = "Brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}

resource "flipbook_document" "d" {
  collection_hash = flipbook_template_collection.t.id
  file            = "${path.module}/manual.pdf"
}
`)
	if err := e.Emulator.SetFaultsOn([]string{apiclient.ActionAddFlipbook}, 1, []string{"conversion_failed"}); err != nil {
		t.Fatal(err)
	}
	if out := w.fails("apply", "-input=false", "-auto-approve"); !says(out, "Document Conversion Failed") {
		t.Fatalf("the failed conversion is not reported:\n%s", out)
	}
	if err := e.Emulator.SetFaults(0, nil); err != nil {
		t.Fatal(err)
	}
	plan := w.must("plan", "-input=false")
	if says(plan, "flipbook_template_collection.t must be replaced") || says(plan, "Generation Failed") {
		t.Errorf("a failed document replaces its collection:\n%s", plan)
	}
	if !says(plan, "flipbook_document.d is tainted") || !says(plan, "must be replaced") { // OpenTofu: "so it must be"
		t.Errorf("the failed document is not uploaded again:\n%s", plan)
	}
	w.apply()
	if n := calls(e, apiclient.ActionCreateFromTemplate); n != 1 {
		t.Errorf("createFromTemplate called %d times, want 1", n)
	}
	if n := calls(e, apiclient.ActionAddFlipbook); n != 2 {
		t.Errorf("flipbook.add called %d times, want 2 (the failed one, then again)", n)
	}
	w.emptyPlan()
}

// An imported logo meets its configured file without being uploaded again
// (the import example's promise): the service cannot report the file.
func TestAccDayTwo_importedLogoNotUploadedAgain(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	writeTestPNG(t, w.dir, "logo.png", 4, 4, color.RGBA{G: 200, A: 255})
	cfg := `
resource "flipbook_collection_logo" "brand" {
  collection_hash = "col-private"
  file            = "${path.module}/logo.png"
}
`
	w.config(cfg)
	w.apply()
	logo := e.collection(t, "col-private").LogoImage
	w.must("state", "rm", "flipbook_collection_logo.brand")
	w.config(cfg + `
import {
  to = flipbook_collection_logo.brand
  id = "col-private"
}
`)
	w.apply()
	if n := calls(e, apiclient.ActionSetLogo); n != 1 {
		t.Errorf("setLogo called %d times, want 1: the import must adopt the logo", n)
	}
	if got := e.collection(t, "col-private").LogoImage; got != logo {
		t.Errorf("logo %q after the import, want %q", got, logo)
	}
	w.emptyPlan()
}

// published_hash naming a collection with another title stops before
// anything changes: the next plan would replace it.
func TestAccDayTwo_publishedHashWithAnotherTitle(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	w.config(`
resource "flipbook_catalog" "shoes" {
  title          = "Not the one"
  published_hash = "col-private"
  sections       = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`)
	out := w.fails("apply", "-input=false", "-auto-approve")
	if !says(out, "Published Hash Names Another Title") {
		t.Errorf("adopting a collection with another title does not stop:\n%s", out)
	}
	if v, _ := w.resource("flipbook_catalog.shoes"); v != nil {
		t.Error("the catalog was adopted")
	}
	// The advice, word for word: write the title the error names.
	title := e.collection(t, "col-private").Title
	if !says(out, fmt.Sprintf("write title = %q (or remove title)", title)) {
		t.Fatalf("the error does not name the title to write:\n%s", out)
	}
	w.config(fmt.Sprintf(`
resource "flipbook_catalog" "shoes" {
  title          = %q
  published_hash = "col-private"
  sections       = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`, title))
	w.apply()
	if got := w.stateString("flipbook_catalog.shoes", "id"); got != "col-private" {
		t.Errorf("id %q, want the adopted col-private", got)
	}
	if n := calls(e, apiclient.ActionCreateCatalog); n != 0 {
		t.Errorf("createCatalog called %d times", n)
	}
	w.emptyPlan()
}

// A collection published between a saved plan and its apply: the call the
// plan made answers 46, and its error says to run terraform plan, which then
// gives the line that moves everything in place.
func TestAccDayTwo_publishedBetweenPlanAndApply(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, _ := appliedDayTwo(t, e, w)
	mails := len(e.Emulator.Notifications())
	writeTestPNG(t, w.dir, "logo.png", 4, 4, color.RGBA{R: 10, G: 10, A: 255}) // a new logo to set
	w.must("plan", "-input=false", "-out=day2.plan")
	published := publish(t, e, old)
	out := w.fails("apply", "-input=false", "day2.plan")
	if !says(out, "code 46") || !says(out, "run terraform plan: it stops and says what to write") {
		t.Fatalf("the failed call does not say what to do:\n%s", out)
	}
	before := e.writes() // the refused setLogo included
	out = w.fails("plan", "-input=false")
	if !says(out, `published_hash = "<new hash>"`) {
		t.Fatalf("the plan does not give the line to write:\n%s", out)
	}
	w.config(dayTwoCatalog(strings.Replace(`published_hash = "<new hash>"`, "<new hash>", published, 1)))
	w.apply()
	before[apiclient.ActionSetLogo]++ // the new logo the plan was made for, set once at the new hash
	movedInPlace(t, e, w, published, before, mails)
}

// A published_hash that the service does not know, or that names a
// collection with another title, stops the plan that would move to it: the
// apply never starts, nothing is written, and the right hash then moves
// everything in place.
func TestAccDayTwo_publishedHashCheckedAtPlan(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, before := appliedDayTwo(t, e, w)
	mails := len(e.Emulator.Notifications())
	published := publish(t, e, old)

	w.config(dayTwoCatalog(`published_hash = "deadbeefdeadbeef"`))
	out := w.fails("plan", "-input=false")
	if !says(out, "Check published_hash against the hash the web editor and the collection's link now show") ||
		says(out, "run terraform plan") {
		t.Errorf("a published_hash the service does not know does not stop the plan with its own advice:\n%s", out)
	}
	w.config(dayTwoCatalog(`published_hash = "col-private"`)) // another collection, with another title
	if out = w.fails("plan", "-input=false"); !says(out, "Published Hash Names Another Title") {
		t.Errorf("a published_hash naming another title does not stop the plan:\n%s", out)
	}
	sameWrites(t, e, before, "after the refused plans")

	w.config(dayTwoCatalog(fmt.Sprintf("published_hash = %q", published)))
	w.apply()
	movedInPlace(t, e, w, published, before, mails)
}

// A data source on a collection published in the web editor says to point
// it at the new hash, not to run terraform plan (which is what failed);
// doing that word for word works.
func TestAccDayTwo_dataSourceOnPublishedHash(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, _ := appliedDayTwo(t, e, w)
	published := publish(t, e, old)
	w.must("state", "rm", "flipbook_catalog.shoes", "flipbook_collection_logo.brand", "flipbook_collection_background.none",
		"flipbook_document.manual", "flipbook_collection_permissions.sales")
	source := func(hash string) string {
		return fmt.Sprintf(`
data "flipbook_collection" "shoes" {
  collection_hash = %q
}

data "flipbook_embed" "shoes" {
  collection_hash = %q
}

data "flipbook_permissions" "shoes" {
  collection_hash = %q
}
`, hash, hash, hash)
	}
	w.config(source(old))
	out := w.fails("plan", "-input=false")
	for _, ds := range []string{"Error Reading Flipbook Collection", "Error Reading Embed Code", "Error Reading Collection Permissions"} {
		if !says(out, ds) {
			t.Errorf("the plan does not report %q:\n%s", ds, out)
		}
	}
	if !says(out, "set this data source's collection_hash to the new hash") || says(out, "run terraform plan") {
		t.Fatalf("the data sources do not say to point them at the new hash:\n%s", out)
	}
	w.config(source(published))
	w.must("plan", "-input=false")
}

// A data source cannot keep what it read: on a collection deleted in the
// web application it fails the plan and the destroy. The README's advice,
// word for word: remove the resource blocks and the data sources that read
// the collection, and apply; nothing is written.
func TestAccDayTwo_deletedWithDataSource(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	w.config(`
resource "flipbook_catalog" "shoes" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}

data "flipbook_embed" "shoes" {
  collection_hash = flipbook_catalog.shoes.id
}
`)
	w.apply()
	if err := e.Emulator.Delete(w.stateString("flipbook_catalog.shoes", "id")); err != nil {
		t.Fatal(err)
	}
	before := e.writes()
	if out := w.fails("destroy", "-input=false", "-auto-approve"); !says(out, "Error Reading Embed Code") ||
		!says(out, "remove this data source (and the resources on that collection) and apply") {
		t.Errorf("the destroy does not fail on the data source with its advice:\n%s", out)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const advice = "Remove the resource blocks (or the `for_each` key), and the data sources that read that collection, and apply"
	if !strings.Contains(string(readme), advice) {
		t.Fatalf("the README no longer gives the advice %q", advice)
	}
	w.config("")
	w.apply()
	if v, _ := w.resource("flipbook_catalog.shoes"); v != nil {
		t.Error("the catalog is still in the state")
	}
	sameWrites(t, e, before, "after the advice")
	w.emptyPlan()
}

// published_hash naming another live collection with the same title while
// the old hash still answers: the plan warns that the old one stays, no
// longer managed here, and the resources on it are replaced on the new one
// with their own warnings; the old collection keeps everything it had.
func TestAccDayTwo_publishedHashWhileOldStillAnswers(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, _ := appliedDayTwo(t, e, w)
	other := newCLIWorkspace(t, e)
	other.config(`
resource "flipbook_catalog" "spare" {
  title    = "Shoes"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`)
	other.apply()
	spare := other.stateString("flipbook_catalog.spare", "id")
	oldItems := len(e.collection(t, old).Items)

	w.config(dayTwoCatalog(fmt.Sprintf("published_hash = %q", spare)))
	plan := w.must("plan", "-input=false")
	for _, want := range []string{"Collection Hash Still Answers", fmt.Sprintf("%s stays in the account, no longer managed here", old),
		"Replacement Keeps The Old Document", "Replacement Keeps The Old Logo"} {
		if !says(plan, want) {
			t.Errorf("the plan does not say %q:\n%s", want, plan)
		}
	}
	uploads := calls(e, apiclient.ActionAddFlipbook)
	w.apply()
	if n := calls(e, apiclient.ActionAddFlipbook); n != uploads+1 {
		t.Errorf("flipbook.add called %d times, %d before: want the document uploaded once to %s", n, uploads, spare)
	}
	if n := e.generatedCollections(); n != 2 {
		t.Errorf("%d generated collections, want 2 (nothing generated again)", n)
	}
	if n := calls(e, apiclient.ActionCreateCatalog); n != 2 {
		t.Errorf("createCatalog called %d times, want 2", n)
	}
	if n := len(e.collection(t, old).Items); n != oldItems {
		t.Errorf("the old collection has %d items, had %d: it stays as it was", n, oldItems)
	}
	for _, addr := range []string{"flipbook_catalog.shoes", "flipbook_document.manual", "flipbook_collection_logo.brand"} {
		attr := "collection_hash"
		if addr == "flipbook_catalog.shoes" {
			attr = "id"
		}
		if got := w.stateString(addr, attr); got != spare {
			t.Errorf("%s is on %q, want %q", addr, got, spare)
		}
	}
	w.emptyPlan()
}

// A collection_hash written out as the old, published hash (as an import
// whose id alone was changed leaves it) stops the plan: a replacement there
// would first empty the access list of the live collection.
func TestAccDayTwo_collectionHashOnDeadHashStopsPlan(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	old, _ := appliedDayTwo(t, e, w)
	published := publish(t, e, old)
	moved := dayTwoCatalog(fmt.Sprintf("published_hash = %q", published))
	w.config(moved)
	w.apply()
	before := e.writes()
	onOld := strings.Replace(moved, `resource "flipbook_collection_permissions" "sales" {
  collection_hash  = flipbook_catalog.shoes.id`, fmt.Sprintf(`resource "flipbook_collection_permissions" "sales" {
  collection_hash  = %q`, old), 1)
	if onOld == moved {
		t.Fatal("the test could not write the old hash")
	}
	w.config(onOld)
	out := w.fails("plan", "-input=false")
	if !says(out, "Collection Hash Not Found") || !says(out, "write in collection_hash the hash the web editor and the collection's link now show") {
		t.Errorf("a collection_hash the service does not know does not stop the plan:\n%s", out)
	}
	sameWrites(t, e, before, "after the refused plan")
	if got := e.collection(t, published).Permissions; len(got) != 1 {
		t.Errorf("the live collection's access list is %+v, want the Sales row", got)
	}
	// The advice: write the hash the collection now has.
	w.config(strings.Replace(onOld, fmt.Sprintf("%q", old), fmt.Sprintf("%q", published), 1))
	w.emptyPlan()
}

// published_hash on a catalog with no title configured, naming a collection
// with another title than the one in the state, stops the plan: publishing
// keeps a title.
func TestAccDayTwo_publishedHashWithoutTitle(t *testing.T) {
	t.Parallel()
	e := newTestEmulator(t, nil)
	w := newCLIWorkspace(t, e)
	block := func(extra string) string {
		return fmt.Sprintf(`
resource "flipbook_catalog" "u" {
  %s
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
`, extra)
	}
	w.config(block(""))
	w.apply()
	old := w.stateString("flipbook_catalog.u", "id")
	published := publish(t, e, old)
	before := e.writes()
	w.config(block(`published_hash = "col-private"`))
	out := w.fails("plan", "-input=false")
	if !says(out, "Published Hash Names Another Title") || !says(out, "publishing keeps a title") {
		t.Errorf("published_hash naming another title does not stop the plan:\n%s", out)
	}
	sameWrites(t, e, before, "after the refused plan")
	w.config(block(fmt.Sprintf("published_hash = %q", published)))
	w.apply()
	if got := w.stateString("flipbook_catalog.u", "id"); got != published {
		t.Errorf("id %q, want %q", got, published)
	}
	w.emptyPlan()
}

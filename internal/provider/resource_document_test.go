package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func documentConfig(e *testEmulator, collection, body string) string {
	return e.providerConfig("") + fmt.Sprintf(`
resource "flipbook_document" "test" {
  collection_hash = %q
  %s
}
`, collection, body)
}

// checkItemPages checks that the service holds the state's flipbook with
// pages pages.
func checkItemPages(api *apiclient.Client, collection, addr string, pages int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		col, err := api.GetCollection(context.Background(), collection)
		if err != nil {
			return err
		}
		for _, it := range col.CollectionItems {
			if it.FlipbookHash == rs.Primary.ID {
				if it.FlipbookPageCount.Value != pages || it.ConvertStatus != apiclient.StatusComplete {
					return fmt.Errorf("item %s has %d pages, status %s; want %d, COMPLETE", it.FlipbookHash, it.FlipbookPageCount.Value, it.ConvertStatus, pages)
				}
				return nil
			}
		}
		return fmt.Errorf("collection %s has no item %s", collection, rs.Primary.ID)
	}
}

func uploads(emu *testEmulator) int {
	return emu.Emulator.Requests()[apiclient.ActionAddFlipbook]["20"]
}

func TestAccDocument_lifecycle(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	dir := t.TempDir()
	pdf := writeTestPDF(t, dir, "manual.pdf", 3)
	// The writer is deterministic: this is the hash the file will have once
	// rewritten with five pages.
	fivePagesSHA := sha256Hex(t, writeTestPDF(t, t.TempDir(), "five.pdf", 5))
	moved := filepath.Join(dir, "moved.pdf")
	const col = "col-private"
	addr := "flipbook_document.test"

	// A PDF served over HTTP for file_url.
	var served []byte
	srv := serveBody(t, func() []byte { return served })

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: documentConfig(emu, col, fmt.Sprintf("file = %q", pdf)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("extension"), knownvalue.StringExact("pdf")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("convert_status"), knownvalue.StringExact("COMPLETE")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, pdf))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("title"), knownvalue.StringExact("manual")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{16}$`))),
				},
				Check: checkItemPages(api, col, addr, 3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName: addr,
				ImportState:  true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return col + "/" + s.RootModule().Resources[addr].Primary.ID, nil
				},
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"file", "file_sha256"},
			},
			{
				// New content on disk is a planned replacement.
				PreConfig: func() { writeTestPDF(t, dir, "manual.pdf", 5) },
				Config:    documentConfig(emu, col, fmt.Sprintf("file = %q\ntitle = \"Manual\"", pdf)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(fivePagesSHA)),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("title"), knownvalue.StringExact("Manual")),
				},
				Check: checkItemPages(api, col, addr, 5),
			},
			{
				// The same content at another path is no new upload.
				PreConfig: func() {
					if err := os.Rename(pdf, moved); err != nil {
						t.Fatal(err)
					}
				},
				Config: documentConfig(emu, col, fmt.Sprintf("file = %q\ntitle = \"Manual\"", moved)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: func(*terraform.State) error {
					if n := uploads(emu); n != 2 {
						return fmt.Errorf("%d uploads so far, want 2: moving the file re-uploaded it", n)
					}
					return nil
				},
			},
			{
				// Switching to a URL replaces the document.
				PreConfig: func() {
					b, err := os.ReadFile(writeTestPDF(t, dir, "remote.pdf", 2))
					if err != nil {
						t.Fatal(err)
					}
					served = b
				},
				Config: documentConfig(emu, col, fmt.Sprintf("file_url = %q", srv.URL+"/remote.pdf")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.Null()),
				},
				Check: checkItemPages(api, col, addr, 2),
			},
		},
	})
}

func TestAccDocument_planTimeChecks(t *testing.T) {
	emu := newTestEmulator(t, nil)
	dir := t.TempDir()
	png := writeTestPNG(t, dir, "picture.pdf", 2, 2, color.White)
	big := writeSparseFile(t, dir, "big.pdf", []byte("%PDF-1.4\n"), 100<<20+1)
	pdf := writeTestPDF(t, dir, "ok.pdf", 1)
	const col = "col-private"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			// Not a rule of the service: a file the provider cannot read cannot be sent.
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", filepath.Join(dir, "missing.pdf"))),
				ExpectError: msgRe("File Not Found", "with flipbook_document.test", `missing.pdf" does not exist`)},
			// Spec, Limits: "Uploaded document | PDF only, at most 100 MB".
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", png)),
				ExpectError: msgRe("Unsupported File Type", "with flipbook_document.test", "PNG", "PDF")},
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", big)),
				ExpectError: msgRe("File Too Large", "104857601 bytes", "104857600")},
			// Spec, flipbook.add: "`file` or `fileUrl` ..., at least one required".
			{Config: documentConfig(emu, col, ""),
				ExpectError: msgRe("Missing Attribute Configuration", "[file,file_url]")},
			// "`file` wins when both": planned, with a warning that file_url is not used.
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q\nfile_url = \"https://example.com/a.pdf\"", pdf)),
				PlanOnly: true, ExpectNonEmptyPlan: true},
			// The spec says only "string URL of a PDF": another scheme is planned, with a warning.
			{Config: documentConfig(emu, col, `file_url = "ftp://example.com/a.pdf"`),
				PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
	expectNoAPICalls(t, emu)
}

func TestAccDocument_serviceLimits(t *testing.T) {
	emu := newTestEmulator(t, fixtureWith(t, func(f *emulator.Fixture) {
		f.Limits.MaxPages = 2
		quota := 3
		f.Accounts[0].UploadsPerMonth = &quota
		f.Accounts[0].UploadsThisMonth = 2
	}))
	dir := t.TempDir()
	long := writeTestPDF(t, dir, "long.pdf", 3)
	broken := writeTestFile(t, dir, "broken.pdf", []byte("%PDF-1.4\nthis is not really a PDF\n"))
	short := writeTestPDF(t, dir, "short.pdf", 1)
	other := writeTestPDF(t, dir, "other.pdf", 2)
	const col = "col-private"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", long)),
				ExpectError: msgRe("Document Has Too Many Pages", "code 35")},
			// Depends on an emulator choice (README, "Where the spec is silent, the
			// emulator …"): a file with a PDF header that pdfcpu cannot read is 45.
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", broken)),
				ExpectError: msgRe("Document Is Not A Readable PDF", "code 45")},
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", short))},
			{Config: documentConfig(emu, col, fmt.Sprintf("file = %q", other)),
				ExpectError: msgRe("Monthly Upload Quota Reached", "code 33", "api_uploads_left (user.getStats) is 0")},
		},
	})
}

// Publishing gives the collection a new hash: the plan stops with the words
// to write, and a collection_hash written out as the new hash moves the
// document there in place, with nothing uploaded again.
func TestAccDocument_collectionGone(t *testing.T) {
	emu := newTestEmulator(t, nil)
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 1)
	cfg := documentConfig(emu, "col-draft", fmt.Sprintf("file = %q", pdf))
	var published, flipbook string
	moved := emu.providerConfig("") + fmt.Sprintf(`
variable "published" { type = string }

resource "flipbook_document" "test" {
  collection_hash = var.published
  file            = %q
}
`, pdf)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: cfg, Check: func(s *terraform.State) error {
				flipbook = s.RootModule().Resources["flipbook_document.test"].Primary.ID
				return nil
			}},
			{
				PreConfig: func() {
					h, err := emu.Emulator.Publish("col-draft")
					if err != nil {
						t.Fatal(err)
					}
					published = h
				},
				Config:      cfg,
				ExpectError: msgRe("Flipbook Collection Hash No Longer Exists", "col-draft", `set collection_hash = "<new hash>"`),
			},
			{
				Config:          moved,
				ConfigVariables: config.Variables{"published": lazyVariable{&published}},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("flipbook_document.test", plancheck.ResourceActionUpdate)},
				},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources["flipbook_document.test"].Primary.ID; id != flipbook {
						return fmt.Errorf("flipbook %q after the move, want %q", id, flipbook)
					}
					if n := calls(emu, "flipbook.add"); n != 1 {
						return fmt.Errorf("flipbook.add called %d times, want 1", n)
					}
					return nil
				},
			},
		},
	})
}

func TestAccDocument_badImportID(t *testing.T) {
	emu := newTestEmulator(t, nil)
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config:        documentConfig(emu, "col-private", fmt.Sprintf("file = %q", pdf)),
			ResourceName:  "flipbook_document.test",
			ImportState:   true,
			ImportStateId: "only-a-flipbook-hash",
			ExpectError:   msgRe("Invalid Import ID", "<collection_hash>/<flipbook_hash>"),
		}},
	})
}

// An upload whose answer is lost took effect: the provider reads the
// collection back, adopts the new item and waits for its conversion. The
// document is uploaded once, and the collection gains one item.
func TestAccDocument_lostAnswerAdopted(t *testing.T) {
	emu := newTestEmulator(t, nil)
	pdf := writeTestPDF(t, t.TempDir(), "doc.pdf", 2)
	before, err := emu.Emulator.Collection("col-private")
	if err != nil {
		t.Fatal(err)
	}
	addr := "flipbook_document.test"
	cfg := documentConfig(emu, "col-private", fmt.Sprintf("file = %q\n  title = \"Lost answer\"", pdf))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := emu.Emulator.SetFaultsOn([]string{apiclient.ActionAddFlipbook}, 1, []string{"reset_after"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("convert_status"), knownvalue.StringExact("COMPLETE")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, pdf))),
				},
				Check: func(s *terraform.State) error {
					after, err := emu.Emulator.Collection("col-private")
					if err != nil {
						return err
					}
					if len(after.Items) != len(before.Items)+1 {
						return fmt.Errorf("collection has %d items, want %d", len(after.Items), len(before.Items)+1)
					}
					if id := s.RootModule().Resources[addr].Primary.ID; after.Items[len(after.Items)-1].FlipbookHash != id {
						return fmt.Errorf("state holds %s, the new item is %s", id, after.Items[len(after.Items)-1].FlipbookHash)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := emu.Emulator.SetFaults(0, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
	if got := emu.Emulator.Requests()[apiclient.ActionAddFlipbook]; got["fault"] != 1 || len(got) != 1 {
		t.Errorf("flipbook.add counters %v, want exactly one send (whose answer was lost)", got)
	}
}

// A path known only at apply is checked and hashed then.
func TestAccDocument_pathKnownAtApply(t *testing.T) {
	emu := newTestEmulator(t, nil)
	pdf := writeTestPDF(t, t.TempDir(), "late.pdf", 2)
	addr := "flipbook_document.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{{
			Config: emu.providerConfig("") + fmt.Sprintf(`
resource "terraform_data" "path" {
  input = %q
}
resource "flipbook_document" "test" {
  collection_hash = "col-private"
  file            = terraform_data.path.output
}
`, pdf),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("file_sha256"))},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, pdf))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
			},
		}},
	})
}

// An imported document has no source in state; the first apply adopts the
// configured file without uploading it again.
func TestAccDocument_importAdoptsSource(t *testing.T) {
	emu := newTestEmulator(t, nil)
	api := emu.apiClient(t)
	pdf := writeTestPDF(t, t.TempDir(), "existing.pdf", 2)
	fb, err := api.AddFlipbook(t.Context(), apiclient.AddFlipbookInput{CollectionHash: "col-private",
		File: &apiclient.Upload{Name: "existing.pdf", Body: mustOpen(t, pdf)}})
	if err != nil {
		t.Fatal(err)
	}
	addr := "flipbook_document.test"
	cfg := documentConfig(emu, "col-private", fmt.Sprintf("file = %q", pdf))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      "col-private/" + fb.FlipbookHash,
				ImportStatePersist: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(fb.FlipbookHash)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file_sha256"), knownvalue.StringExact(sha256Hex(t, pdf))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("page_count"), knownvalue.Int64Exact(2)),
				},
				Check: func(*terraform.State) error {
					if n := uploads(emu); n != 1 {
						return fmt.Errorf("%d uploads, want 1 (the one made before the import)", n)
					}
					return nil
				},
			},
		},
	})
}

// rewritingProxy serves the emulator with collection.getCollection answers
// passed through rewrite, to show what the emulator cannot produce (a failed
// conversion, an item removed in the web application). It returns the proxy's
// base_url.
func rewritingProxy(t *testing.T, emu *testEmulator, rewrite func(body string) string) string {
	t.Helper()
	h := emu.Emulator.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("action") != apiclient.ActionGetCollection {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		if _, err := w.Write([]byte(rewrite(rec.Body.String()))); err != nil {
			t.Error(err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v1/"
}

func proxiedDocumentConfig(base, uploadURL, pdf string) string {
	return testProviderConfig(base, uploadURL, "") + fmt.Sprintf(`
resource "flipbook_document" "test" {
  collection_hash = "col-private"
  file            = %q
}
`, pdf)
}

// The emulator's conversion_failed fault: the document is accepted, its
// conversion ends FAILED.
func TestAccDocument_conversionFailed(t *testing.T) {
	emu := newTestEmulator(t, nil)
	addr := "flipbook_document.test"
	cfg := documentConfig(emu, "col-private", fmt.Sprintf("file = %q", writeTestPDF(t, t.TempDir(), "doc.pdf", 1)))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := emu.Emulator.SetFaults(1, []string{"conversion_failed"}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)Document Conversion Failed.*[0-9a-f]{16}.*col-private.*tainted`),
			},
			{
				// The failed document was kept in state, tainted: the next
				// apply replaces it.
				PreConfig: func() {
					if err := emu.Emulator.SetFaults(0, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("convert_status"), knownvalue.StringExact("COMPLETE")),
				},
			},
		},
	})
}

func TestAccDocument_itemRemovedOutside(t *testing.T) {
	emu := newTestEmulator(t, nil)
	var hidden atomic.Value // the flipbook hash to leave out, once known
	hidden.Store("")
	base := rewritingProxy(t, emu, func(body string) string {
		hash, _ := hidden.Load().(string)
		if hash == "" {
			return body
		}
		var env map[string]any
		if err := json.Unmarshal([]byte(body), &env); err != nil {
			t.Errorf("not JSON: %s", body)
			return body
		}
		data, _ := env["data"].(map[string]any)
		items, _ := data["collectionItems"].([]any)
		kept := []any{}
		for _, it := range items {
			if m, _ := it.(map[string]any); m["flipbookHash"] != hash {
				kept = append(kept, it)
			}
		}
		data["collectionItems"] = kept
		out, err := json.Marshal(env)
		if err != nil {
			t.Error(err)
		}
		return string(out)
	})
	addr := "flipbook_document.test"
	cfg := proxiedDocumentConfig(base, emu.UploadURL, writeTestPDF(t, t.TempDir(), "doc.pdf", 1))
	var created string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					created = s.RootModule().Resources[addr].Primary.ID
					return nil
				},
			},
			{
				// Refresh no longer finds the item: the document leaves the
				// state and is planned again.
				PreConfig: func() { hidden.Store(created) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}

// A collection that answers 43 (deleted, or another account's) keeps the
// document in state with a warning and plans nothing: the credentials may
// simply be wrong, and a deleted collection must not block the workspace.
func TestAccDocument_forbiddenKeepsState(t *testing.T) {
	emu := newTestEmulator(t, nil)
	var forbidden atomic.Bool
	base := rewritingProxy(t, emu, func(body string) string {
		if forbidden.Load() {
			return `{"code":43,"status":"Forbidden"}`
		}
		return body
	})
	cfg := proxiedDocumentConfig(base, emu.UploadURL, writeTestPDF(t, t.TempDir(), "doc.pdf", 1))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories(t),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { forbidden.Store(true) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Still in state: once readable again, nothing changes.
				PreConfig: func() { forbidden.Store(false) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if n := calls(emu, "flipbook.add"); n != 1 {
						return fmt.Errorf("flipbook.add called %d times, want 1", n)
					}
					return nil
				},
			},
		},
	})
}

// Command bench runs the scenario benchmarks of `make bench`: the real
// Terraform CLI applies configurations with the freshly built provider
// (dev_overrides) against the emulator binary, started afresh for each run
// with a fixture that sets the service's limits and generation delay. It
// prints one line per scenario with its figure and the goal the README
// states for it.
//
//	go run ./scripts/bench -bin bin [-terraform /usr/local/bin/terraform] [-run REGEXP]
//
// BENCH_TF_LOG, when set, is the TF_LOG of every terraform command (with
// TF_LOG_PATH, the request budget's changes can be read afterwards).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

func main() {
	bin := flag.String("bin", "bin", "directory holding terraform-provider-flipbook and flipbook-emulator")
	tf := flag.String("terraform", "/usr/local/bin/terraform", "the terraform binary")
	run := flag.String("run", "", "only the scenarios whose name matches this regular expression")
	repeat := flag.Int("repeat", 3, "runs of each create-latency apply (the median is kept)")
	flag.Parse()
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	match, err := regexp.Compile(*run)
	if err != nil {
		fail(err)
	}
	h := &harness{bin: binDir, terraform: *tf, repeat: *repeat}
	for _, f := range []string{"terraform-provider-flipbook", "flipbook-emulator"} {
		if _, err := os.Stat(filepath.Join(binDir, f)); err != nil {
			fail(fmt.Errorf("%w: run `make build` first", err))
		}
	}
	if _, err := os.Stat(*tf); err != nil {
		fail(fmt.Errorf("terraform not found at %s: %w", *tf, err))
	}
	failed := false
	for _, sc := range scenarios {
		if !match.MatchString(sc.name) || (optIn[sc.name] && *run == "") {
			continue
		}
		line, err := sc.run(h)
		if err != nil {
			fmt.Printf("%-22s FAILED: %v\n", sc.name, err)
			failed = true
			continue
		}
		fmt.Printf("%-22s %s\n", sc.name, line)
	}
	if failed {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}

type scenario struct {
	name string
	run  func(*harness) (string, error)
}

// optIn are the scenarios run only when -run names them.
var optIn = map[string]bool{"shared-key-long": true}

var scenarios = []scenario{
	{"bulk/told", func(h *harness) (string, error) { return bulk(h, true) }},
	{"bulk/not-told", func(h *harness) (string, error) { return bulk(h, false) }},
	{"per-minute/told", func(h *harness) (string, error) { return perMinute(h, true) }},
	{"per-minute/not-told", func(h *harness) (string, error) { return perMinute(h, false) }},
	{"create-latency", createLatency},
	{"refresh", refresh},
	{"upload-rss", uploadRSS},
	{"mixed", mixed},
	{"shared-key", sharedKey},
	{"shared-key-sustained", sharedKeySustained},
	{"shared-key-long", sharedKeyLong},
}

// service is what one emulator run is set up with.
type service struct {
	perSecond, perMinute int
	generation           time.Duration
	conversion           *time.Duration // nil: the emulator's default
}

// harness runs terraform against emulators.
type harness struct {
	bin, terraform string
	repeat         int
}

// env is one running emulator and a working directory for terraform.
type env struct {
	h       *harness
	dir     string
	cmd     *exec.Cmd
	baseURL string
}

func (h *harness) start(svc service) (*env, error) {
	dir, err := os.MkdirTemp("", "flipbook-bench-")
	if err != nil {
		return nil, err
	}
	fx := emulator.DemoFixture()
	fx.Limits.RequestsPerSecond = svc.perSecond
	fx.Limits.RequestsPerMinute = svc.perMinute
	ms := svc.generation.Milliseconds()
	fx.Generation.DelayMs = &ms
	if svc.conversion != nil {
		conv := svc.conversion.Milliseconds()
		fx.Generation.ConversionDelayMs = &conv
	}
	b, err := json.Marshal(fx)
	if err != nil {
		return nil, err
	}
	fixture := filepath.Join(dir, "fixture.json")
	if err := os.WriteFile(fixture, b, 0o600); err != nil {
		return nil, err
	}
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"flipbook/flipbook\" = %q\n  }\n  direct {}\n}\n", h.bin)
	if err := os.WriteFile(filepath.Join(dir, "terraformrc"), []byte(rc), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(context.Background(), filepath.Join(h.bin, "flipbook-emulator"), "-addr", "127.0.0.1:0", "-fixture", fixture) //nolint:gosec // G204: the emulator binary the bench was pointed at

	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &env{h: h, dir: dir, cmd: cmd}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		e.stop()
		return nil, fmt.Errorf("the emulator did not announce its address: %w", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	for f := range strings.FieldsSeq(line) {
		if v, ok := strings.CutPrefix(f, "base_url="); ok {
			e.baseURL = v
		}
	}
	if e.baseURL == "" {
		e.stop()
		return nil, fmt.Errorf("cannot read the emulator's line %q", line)
	}
	return e, nil
}

func (e *env) stop() {
	_ = e.cmd.Process.Kill()
	_ = e.cmd.Wait()
	_ = os.RemoveAll(e.dir)
}

// control is the emulator's /_emulator/ address.
func (e *env) control(path string) string {
	return strings.TrimSuffix(e.baseURL, "/api/v1/") + "/_emulator/" + path
}

// calls returns the API calls the emulator answered since the last reset:
// all of them and those refused with 31 or 32.
func (e *env) calls() (total, throttled int, err error) {
	counts, err := e.requestCounts()
	if err != nil {
		return 0, 0, err
	}
	for _, byCode := range counts.ByAction {
		for code, n := range byCode {
			total += n
			if code == "31" || code == "32" {
				throttled += n
			}
		}
	}
	return total, throttled, nil
}

// requestCounts is the emulator's count of answers by action and code.
func (e *env) requestCounts() (*emulator.RequestCounts, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, e.control("requests"), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body emulator.RequestCounts
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	return &body, nil
}

// byAction lists the calls per action, most first.
func byAction(c *emulator.RequestCounts) string {
	type count struct {
		action string
		n      int
	}
	var counts []count
	for a := range c.ByAction {
		counts = append(counts, count{a, actionCalls(c, a)})
	}
	slices.SortFunc(counts, func(a, b count) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.action, b.action)
	})
	parts := make([]string, len(counts))
	for i, k := range counts {
		parts[i] = fmt.Sprintf("%d %s", k.n, strings.TrimPrefix(strings.TrimPrefix(k.action, "collection."), "flipbook."))
	}
	return strings.Join(parts, ", ")
}

// actionCalls sums the answers to one action, whatever their code.
func actionCalls(c *emulator.RequestCounts, action string) int {
	n := 0
	for _, k := range c.ByAction[action] {
		n += k
	}
	return n
}

func (e *env) resetCalls() error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, e.control("requests"), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("resetting the counters: HTTP %d", resp.StatusCode)
	}
	return nil
}

// write puts main.tf in the working directory: the provider block (with
// the extra settings) and body.
func (e *env) write(providerExtra, body string) error {
	cfg := fmt.Sprintf(`terraform {
  required_providers {
    flipbook = { source = "flipbook/flipbook" }
  }
}

provider "flipbook" {
%s
}

%s
`, providerExtra, body)
	return os.WriteFile(filepath.Join(e.dir, "main.tf"), []byte(cfg), 0o600)
}

// terraform runs one terraform command in the working directory and
// returns its wall time; watch, when set, is called with the process once
// it started and returns when the process ends.
func (e *env) terraform(watch func(pid int) func(), args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(context.Background(), e.h.terraform, args...) //nolint:gosec // G204: the terraform binary the bench was pointed at

	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+filepath.Join(e.dir, "terraformrc"),
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_LOG="+os.Getenv("BENCH_TF_LOG"),
		"FLIPBOOK_API_KEY=demo-key", "FLIPBOOK_API_SECRET=demo-secret",
		"FLIPBOOK_BASE_URL="+e.baseURL,
		"FLIPBOOK_UPLOAD_URL="+strings.Replace(e.baseURL, "/api/v1/", "/upload/v1/", 1),
	)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	var done func()
	if watch != nil {
		done = watch(cmd.Process.Pid)
	}
	err := cmd.Wait()
	wall := time.Since(start)
	if done != nil {
		done()
	}
	if err != nil {
		text := out.String()
		if len(text) > 3000 {
			text = "..." + text[len(text)-3000:]
		}
		return wall, fmt.Errorf("terraform %s: %w\n%s", args[0], err, text)
	}
	return wall, nil
}

func (e *env) apply() (time.Duration, error) {
	return e.terraform(nil, "apply", "-auto-approve", "-input=false", "-no-color")
}

// catalogs is n catalogs of the demo fixture's shoes feed.
func catalogs(n int) string {
	return fmt.Sprintf(`resource "flipbook_catalog" "c" {
  count = %d
  title = "Bench ${count.index}"
  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"
  }]
}
`, n)
}

// slidingBound is the least time n calls take under the service's limits
// (the first perMinute at perSecond, each later one once the call perMinute
// before it left the minute), plus one generation.
func slidingBound(n, perSecond, perMinute int, gen time.Duration) time.Duration {
	at := make([]time.Duration, n)
	for k := range n {
		switch {
		case perMinute > 0 && k >= perMinute:
			at[k] = at[k-perMinute] + time.Minute
		default:
			at[k] = time.Duration(float64(k) / float64(perSecond) * float64(time.Second))
		}
	}
	return at[n-1] + gen
}

// bulk: 60 catalogs, the service at 8 requests per second, 1 s generation.
// The lower bound is 2·60/8 s of calls plus one generation: 16 s.
func bulk(h *harness, told bool) (string, error) {
	const n, rps = 60, 8
	svc := service{perSecond: rps, generation: time.Second}
	bound := time.Duration(float64(2*n)/rps*float64(time.Second)) + svc.generation
	extra, goal := "", "goal <= 1.35, throttled <= 10% of calls"
	if told {
		extra, goal = fmt.Sprintf("  requests_per_second = %d", rps), "goal <= 1.10, throttled 0"
	}
	return limited(h, svc, n, extra, bound, goal)
}

// perMinute: 45 catalogs, the service at 5 per second and 60 per minute,
// 3 s generation; the bound is about 69 s (slidingBound).
func perMinute(h *harness, told bool) (string, error) {
	const n = 45
	svc := service{perSecond: 5, perMinute: 60, generation: 3 * time.Second}
	bound := slidingBound(2*n, svc.perSecond, svc.perMinute, svc.generation)
	extra, goal := "", "goal <= 1.8, completes"
	if told {
		extra, goal = "  requests_per_second = 5\n  requests_per_minute = 60", "goal <= 1.15, throttled 0"
	}
	return limited(h, svc, n, extra, bound, goal)
}

func limited(h *harness, svc service, n int, extra string, bound time.Duration, goal string) (string, error) {
	e, err := h.start(svc)
	if err != nil {
		return "", err
	}
	defer e.stop()
	if err := e.write(extra, catalogs(n)); err != nil {
		return "", err
	}
	wall, err := e.apply()
	if err != nil {
		return "", err
	}
	total, throttled, err := e.calls()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("wall/bound %.2f (%.1fs / %.1fs)  calls/needed %.2f (%d/%d)  throttled %d (%.1f%%)  [%s]",
		wall.Seconds()/bound.Seconds(), wall.Seconds(), bound.Seconds(),
		float64(total)/float64(2*n), total, 2*n, throttled, 100*float64(throttled)/float64(max(total, 1)), goal), nil
}

// createLatency: (apply of one catalog − apply of a data source alone) /
// generation delay, 3 s generation, medians of h.repeat runs each.
func createLatency(h *harness) (string, error) {
	const gen = 3 * time.Second
	var withCatalog, alone []time.Duration
	for range h.repeat {
		for _, catalog := range []bool{false, true} {
			e, err := h.start(service{generation: gen})
			if err != nil {
				return "", err
			}
			body := "data \"flipbook_collection\" \"d\" {\n  collection_hash = \"pub-private-1\"\n}\n"
			if catalog {
				body += catalogs(1)
			}
			if err := e.write("", body); err != nil {
				e.stop()
				return "", err
			}
			wall, err := e.apply()
			e.stop()
			if err != nil {
				return "", err
			}
			if catalog {
				withCatalog = append(withCatalog, wall)
			} else {
				alone = append(alone, wall)
			}
		}
	}
	a, b := median(withCatalog), median(alone)
	return fmt.Sprintf("(apply one catalog - apply data source alone) / generation %.3f ((%.2fs - %.2fs) / %.0fs, medians of %d)  [goal <= 1.05]",
		(a-b).Seconds()/gen.Seconds(), a.Seconds(), b.Seconds(), gen.Seconds(), h.repeat), nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// refresh: API calls per resource for a plan of 60 catalogs.
func refresh(h *harness) (string, error) {
	const n = 60
	e, err := h.start(service{generation: 100 * time.Millisecond})
	if err != nil {
		return "", err
	}
	defer e.stop()
	if err := e.write("", catalogs(n)); err != nil {
		return "", err
	}
	if _, err := e.apply(); err != nil {
		return "", err
	}
	if err := e.resetCalls(); err != nil {
		return "", err
	}
	wall, err := e.terraform(nil, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	if err != nil {
		return "", fmt.Errorf("the plan after apply is not empty or failed: %w", err)
	}
	total, _, err := e.calls()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("API calls per resource %.2f (%d calls for %d catalogs, plan %.1fs)  [goal 1.0]",
		float64(total)/n, total, n, wall.Seconds()), nil
}

// uploadRSS: the provider's peak resident memory while it uploads a 95 MiB
// PDF, above its peak while uploading a one-page PDF (its own baseline).
func uploadRSS(h *harness) (string, error) {
	peak := func(size int64) (int64, error) {
		e, err := h.start(service{})
		if err != nil {
			return 0, err
		}
		defer e.stop()
		pdf := filepath.Join(e.dir, "doc.pdf")
		if err := writePDF(pdf, size); err != nil {
			return 0, err
		}
		body := fmt.Sprintf(`resource "flipbook_template_collection" "t" {
  title    = "Bench upload"
  sections = [{
    type      = "static"
    templates = [{ template_hash = "tpl-cover" }]
  }]
}

resource "flipbook_document" "d" {
  collection_hash = flipbook_template_collection.t.id
  file            = %q
  title           = "Bench"
}
`, pdf)
		if err := e.write("", body); err != nil {
			return 0, err
		}
		var hwm int64
		watch := func(pid int) func() {
			stop := make(chan struct{})
			finished := make(chan struct{})
			go func() {
				defer close(finished)
				tick := time.NewTicker(10 * time.Millisecond)
				defer tick.Stop()
				for {
					for _, p := range providerPIDs(pid) {
						if kb := statusKB(p, "VmHWM:"); kb > hwm {
							hwm = kb
						}
					}
					select {
					case <-stop:
						return
					case <-tick.C:
					}
				}
			}()
			return func() { close(stop); <-finished }
		}
		if _, err := e.terraform(watch, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			return 0, err
		}
		if hwm == 0 {
			return 0, errors.New("no provider process was seen")
		}
		return hwm, nil
	}
	small, err := peak(0)
	if err != nil {
		return "", err
	}
	big, err := peak(95 << 20)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("peak RSS above baseline %.1f MiB (95 MiB PDF %.1f MiB, one-page PDF %.1f MiB)  [goal < 6 MiB]",
		float64(big-small)/1024, float64(big)/1024, float64(small)/1024), nil
}

// providerPIDs lists the provider processes started by the terraform
// process pid.
func providerPIDs(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, ent := range entries {
		p, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || !strings.Contains(s[:i], "(terraform-provi") {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// statusKB reads a "Name:  N kB" line of /proc/pid/status.
func statusKB(pid int, name string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// writePDF writes a one-page PDF whose page content is padded with a
// comment stream so the file is about pad bytes larger.
func writePDF(path string, pad int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var offsets []int64
	var n int64
	write := func(s string) {
		k, _ := w.WriteString(s)
		n += int64(k)
	}
	obj := func(body string) {
		offsets = append(offsets, n)
		write(fmt.Sprintf("%d 0 obj\n%s\nendobj\n", len(offsets), body))
	}
	write("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>")
	content := "0 0 m 612 792 l S\n"
	filler := strings.Repeat("%"+strings.Repeat("x", 78)+"\n", 1)
	lines := pad / int64(len(filler))
	offsets = append(offsets, n)
	write(fmt.Sprintf("4 0 obj\n<< /Length %d >>\nstream\n%s", int64(len(content))+lines*int64(len(filler)), content))
	for range lines {
		write(filler)
	}
	write("\nendstream\nendobj\n")
	xref := n
	write(fmt.Sprintf("xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1))
	for _, o := range offsets {
		write(fmt.Sprintf("%010d 00000 n \n", o))
	}
	write(fmt.Sprintf("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref))
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// mixedCollections is n catalogs, each with a logo, no background image, a
// document and an access list: what a real account keeps per collection.
func mixedCollections(n int, logo, pdf string) string {
	return fmt.Sprintf(`resource "flipbook_catalog" "c" {
  count = %[1]d
  title = "Bench ${count.index}"
  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"
  }]
}

resource "flipbook_collection_logo" "l" {
  count           = %[1]d
  collection_hash = flipbook_catalog.c[count.index].id
  file            = %[2]q
}

resource "flipbook_collection_background" "b" {
  count           = %[1]d
  collection_hash = flipbook_catalog.c[count.index].id
}

resource "flipbook_document" "d" {
  count           = %[1]d
  collection_hash = flipbook_catalog.c[count.index].id
  file            = %[3]q
  title           = "Manual"
}

resource "flipbook_collection_permissions" "p" {
  count           = %[1]d
  collection_hash = flipbook_catalog.c[count.index].id
  permissions     = [{ type = "teammate", group = "Sales" }]
}
`, n, logo, pdf)
}

// mixed: 15 such collections, the service at 5 calls a second (the
// provider told), 1 s generation, documents converted by the time
// flipbook.add answers: API calls per collection of the apply that creates
// them all and of the plan that follows (which must be empty). The floor is
// 2 for the plan (one getCollection answers the catalog, logo, background
// and document; one getPermissions the access list) and 6 for the apply
// (createCatalog, one status read, setLogo, deleteBackgroundImage,
// flipbook.add, setPermissions), the document's look at the items before
// the upload and its conversion status both answered without a call of
// their own.
func mixed(h *harness) (string, error) {
	const n = 15
	var instant time.Duration
	e, err := h.start(service{perSecond: 5, generation: time.Second, conversion: &instant})
	if err != nil {
		return "", err
	}
	defer e.stop()
	logo, err := os.ReadFile(filepath.Join("examples", "demo", "logo.png"))
	if err != nil {
		return "", err
	}
	logoPath, pdfPath := filepath.Join(e.dir, "logo.png"), filepath.Join(e.dir, "doc.pdf")
	if err := os.WriteFile(logoPath, logo, 0o600); err != nil { //nolint:gosec // G703: a file in the bench's own temporary directory
		return "", err
	}
	if err := writePDF(pdfPath, 0); err != nil {
		return "", err
	}
	if err := e.write("  requests_per_second = 5", mixedCollections(n, logoPath, pdfPath)); err != nil {
		return "", err
	}
	applyWall, err := e.apply()
	if err != nil {
		return "", err
	}
	applied, err := e.requestCounts()
	if err != nil {
		return "", err
	}
	// The plan's provider process starts with a budget of its own: let the
	// apply's last second leave the service's window first, so that the
	// plan's count holds reads, not throttles of a burst.
	time.Sleep(1100 * time.Millisecond)
	if err := e.resetCalls(); err != nil {
		return "", err
	}
	planWall, err := e.terraform(nil, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	if err != nil {
		return "", fmt.Errorf("the plan after apply is not empty or failed: %w", err)
	}
	planned, err := e.requestCounts()
	if err != nil {
		return "", err
	}
	sum := func(c *emulator.RequestCounts) int {
		t := 0
		for a := range c.ByAction {
			t += actionCalls(c, a)
		}
		return t
	}
	return fmt.Sprintf("plan calls/collection %.2f (%s; %.1fs)  [goal <= 2.0]\n%-22s apply calls/collection %.2f (%s; %.1fs)  [goal <= 6.5]",
		float64(sum(planned))/n, byAction(planned), planWall.Seconds(), "",
		float64(sum(applied))/n, byAction(applied), applyWall.Seconds()), nil
}

// sharedKey: 75 catalogs under the documented limits (5 calls a second, 60
// a minute), the provider not told, while another client on the same key
// calls user.getStats once a second for the first 45 s and then stops. The
// figure is the wall time over the sliding-window bound of every call the
// service accepted, both clients' (slidingBound, 3 s generation): how well
// the key's capacity was used, including after the other client left.
func sharedKey(h *harness) (string, error) {
	return shareKeyWith(h, 75, 45)
}

// sharedKeySustained: the same apply, but over a network (round trips of
// 20 to 60 ms, as to a real service, where loopback's are a millisecond),
// and the other client joins 20 s in, once the provider has the key's
// count, and calls once a second, at a random moment of each, for as long
// as the apply runs: the share of the key this provider leaves it.
func sharedKeySustained(h *harness) (string, error) {
	return shareKeyWith(h, 75, 0)
}

// sharedKeyLong is sharedKeySustained with 150 catalogs, about five
// minutes of contention: long enough for the share to grow (it doubles at
// most once a window). Not in the default run (BENCH_RUN=long).
func sharedKeyLong(h *harness) (string, error) {
	return shareKeyWith(h, 150, 0)
}

// shareKeyWith runs the shared-key apply; the other client makes
// otherCalls calls, one a second from the start (0: from 20 s in until the
// apply ends, each at a random moment of its second).
func shareKeyWith(h *harness, n, otherCalls int) (string, error) {
	svc := service{perSecond: 5, perMinute: 60, generation: 3 * time.Second}
	e, err := h.start(svc)
	if err != nil {
		return "", err
	}
	defer e.stop()
	if otherCalls == 0 {
		stop, err := e.behindNetwork(20*time.Millisecond, 60*time.Millisecond)
		if err != nil {
			return "", err
		}
		defer stop()
	}
	if err := e.write("", catalogs(n)); err != nil {
		return "", err
	}
	done := make(chan struct{})
	type tally struct{ ok, tried int }
	result := make(chan tally, 1)
	go func() {
		var t tally
		if otherCalls == 0 {
			select {
			case <-done:
				result <- t
				return
			case <-time.After(20 * time.Second):
			}
		}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for otherCalls == 0 || t.tried < otherCalls {
			if otherCalls == 0 {
				select {
				case <-done:
					result <- t
					return
				case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))): //nolint:gosec // G404: when another client calls; it protects nothing
				}
			}
			t.tried++
			if e.otherCall() {
				t.ok++
			}
			select {
			case <-done:
				result <- t
				return
			case <-tick.C:
			}
		}
		result <- t
	}()
	wall, err := e.apply()
	close(done)
	other := <-result
	if err != nil {
		return "", err
	}
	total, throttled, err := e.calls()
	if err != nil {
		return "", err
	}
	served := total - throttled
	bound := slidingBound(served, svc.perSecond, svc.perMinute, svc.generation)
	return fmt.Sprintf("wall/bound %.2f (%.1fs / %.1fs for %d accepted calls)  other client accepted %d of %d (%.0f%%)  provider throttled %d  [goal <= 1.25]",
		wall.Seconds()/bound.Seconds(), wall.Seconds(), bound.Seconds(), served, other.ok, other.tried,
		100*float64(other.ok)/float64(max(other.tried, 1)), throttled-(other.tried-other.ok)), nil
}

// behindNetwork puts a proxy in front of the emulator that holds each
// request and each answer for half a round trip drawn between minRTT and
// maxRTT, as a network would; from then on terraform and the other client
// reach the emulator through it.
func (e *env) behindNetwork(minRTT, maxRTT time.Duration) (stop func(), err error) {
	target, err := url.Parse(e.baseURL)
	if err != nil {
		return nil, err
	}
	half := func() time.Duration { return (minRTT + rand.N(maxRTT-minRTT+1)) / 2 } //nolint:gosec // G404: a simulated network; it protects nothing
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.ModifyResponse = func(*http.Response) error {
		time.Sleep(half())
		return nil
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(half())
		proxy.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	e.baseURL = strings.Replace(e.baseURL, target.Host, ln.Addr().String(), 1)
	return func() { _ = srv.Close() }, nil
}

// otherCall is one call of another client on the bench's key; it says
// whether the service accepted it.
func (e *env) otherCall() bool {
	p := map[string]string{"action": apiclient.ActionUserGetStats, "apiKey": "demo-key"}
	p["signature"] = apiclient.Sign("demo-secret", p)
	q := url.Values{}
	for k, v := range p {
		q.Set(k, v)
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, e.baseURL+"?"+q.Encode(), nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var env struct {
		Code int `json:"code"`
	}
	return json.NewDecoder(resp.Body).Decode(&env) == nil && env.Code == 20
}

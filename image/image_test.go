// The image test: it reads the flipbook-emulator images that `make image`
// wrote (FLIPBOOK_IMAGE_DIR, one docker-archive per platform), checks their
// configuration as skopeo shows it, unpacks their layers, and runs the
// binary found there through the image's own health check and signed API
// calls. Containers cannot be run on our machines, so the binary is run
// directly from the unpacked root. `make test-image` runs it.
package image_test

import (
	"archive/tar"
	"bufio"
	"crypto/md5" //nolint:gosec // G501: the spec signs with MD5
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// imageConfig is the part of the image configuration the test reads.
type imageConfig struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		User         string              `json:"User"`
		ExposedPorts map[string]struct{} `json:"ExposedPorts"`
		Entrypoint   []string            `json:"Entrypoint"`
		Cmd          []string            `json:"Cmd"`
		Env          []string            `json:"Env"`
		Labels       map[string]string   `json:"Labels"`
		Healthcheck  *struct {
			Test []string `json:"Test"`
		} `json:"Healthcheck"`
	} `json:"config"`
}

func TestImage(t *testing.T) {
	dir := os.Getenv("FLIPBOOK_IMAGE_DIR")
	if dir == "" {
		t.Skip("set FLIPBOOK_IMAGE_DIR to the directory `make image` wrote (make test-image does)")
	}
	skopeo, err := exec.LookPath("skopeo")
	if err != nil {
		t.Fatal("skopeo is needed to read the images (make test-image installs it)")
	}
	version := os.Getenv("FLIPBOOK_IMAGE_VERSION")
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			matches, _ := filepath.Glob(filepath.Join(dir, "flipbook-emulator_*_linux_"+arch+".tar"))
			if len(matches) != 1 {
				t.Fatalf("want one linux/%s archive in %s, found %v", arch, dir, matches)
			}
			archive := matches[0]
			if fi, err := os.Stat(archive); err == nil {
				t.Logf("%s: %.1f MiB", filepath.Base(archive), float64(fi.Size())/(1<<20))
			}
			out, err := exec.CommandContext(t.Context(), skopeo, "inspect", "--config", "--raw", "docker-archive:"+archive).Output() //nolint:gosec // G204: the test's own archive
			if err != nil {
				t.Fatalf("skopeo inspect: %v", err)
			}
			var cfg imageConfig
			if err := json.Unmarshal(out, &cfg); err != nil {
				t.Fatal(err)
			}
			checkConfig(t, cfg, arch, version)

			root, owners := unpack(t, archive)
			checkTree(t, root, owners, arch)
			if arch != runtime.GOARCH || runtime.GOOS != "linux" {
				t.Logf("linux/%s binary not run on %s/%s", arch, runtime.GOOS, runtime.GOARCH)
				return
			}
			runUnpacked(t, root, cfg)
		})
	}
}

func checkConfig(t *testing.T, cfg imageConfig, arch, version string) {
	t.Helper()
	c := cfg.Config
	if cfg.OS != "linux" || cfg.Architecture != arch {
		t.Errorf("platform %s/%s, want linux/%s", cfg.OS, cfg.Architecture, arch)
	}
	if want := []string{"/flipbook-emulator", "-addr", "0.0.0.0:8080"}; !slices.Equal(c.Entrypoint, want) {
		t.Errorf("entrypoint %q, want %q", c.Entrypoint, want)
	}
	if len(c.Cmd) != 0 {
		t.Errorf("cmd %q: arguments after the image name should be the only ones", c.Cmd)
	}
	if c.User == "" || c.User == "0" || strings.HasPrefix(c.User, "0:") || c.User == "root" {
		t.Errorf("user %q, want a non-root user", c.User)
	}
	if _, ok := c.ExposedPorts["8080/tcp"]; !ok || len(c.ExposedPorts) != 1 {
		t.Errorf("exposed ports %v, want 8080/tcp alone", c.ExposedPorts)
	}
	if c.Healthcheck == nil || !slices.Equal(c.Healthcheck.Test, []string{"CMD", "/flipbook-emulator", "health", "-addr", "127.0.0.1:8080"}) {
		t.Errorf("health check %+v, want the binary's health subcommand without a shell", c.Healthcheck)
	}
	for _, k := range []string{"source", "version", "revision", "licenses", "title"} {
		if c.Labels["org.opencontainers.image."+k] == "" {
			t.Errorf("label org.opencontainers.image.%s missing: %v", k, c.Labels)
		}
	}
	if version != "" && c.Labels["org.opencontainers.image.version"] != version {
		t.Errorf("version label %q, want %q", c.Labels["org.opencontainers.image.version"], version)
	}
	if rev := os.Getenv("FLIPBOOK_IMAGE_REVISION"); rev != "" && c.Labels["org.opencontainers.image.revision"] != rev {
		t.Errorf("revision label %q, want %q", c.Labels["org.opencontainers.image.revision"], rev)
	}
}

// owner is the owner and mode of one path of the image.
type owner struct {
	uid, gid int
	mode     int64
}

// unpack extracts a docker-archive's layers, in order, into a new
// directory and returns it with the owner of every path the layers hold.
func unpack(t *testing.T, archive string) (string, map[string]owner) {
	t.Helper()
	outer := t.TempDir()
	extract(t, archive, outer, nil)
	var manifest []struct{ Layers []string }
	b, err := os.ReadFile(filepath.Join(outer, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil || len(manifest) != 1 || len(manifest[0].Layers) == 0 {
		t.Fatalf("manifest.json %s: %v", b, err)
	}
	root := t.TempDir()
	owners := map[string]owner{}
	for _, l := range manifest[0].Layers {
		extract(t, filepath.Join(outer, l), root, owners)
	}
	return root, owners
}

// extract unpacks a tar file into dir, refusing any path that leaves it;
// owners (when not nil) records each entry's owner and mode.
func extract(t *testing.T, file, dir string, owners map[string]owner) {
	t.Helper()
	f, err := os.Open(file) // a layer may be a symlink inside the archive: Open follows it
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		name := filepath.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." {
			continue
		}
		if !filepath.IsLocal(name) {
			t.Fatalf("%s: entry %q leaves the root", file, h.Name)
		}
		if owners != nil {
			owners[filepath.ToSlash(name)] = owner{uid: h.Uid, gid: h.Gid, mode: h.Mode}
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o750); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
				t.Fatal(err)
			}
			w, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode&0o777)|0o200)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(w, io.LimitReader(tr, 1<<30)); err != nil {
				t.Fatal(err)
			}
			w.Close()
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(h.Linkname, p); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("%s: entry %q of unexpected type %c", file, h.Name, h.Typeflag)
		}
	}
}

func checkTree(t *testing.T, root string, owners map[string]owner, arch string) {
	t.Helper()
	bin, ok := owners["flipbook-emulator"]
	if !ok || bin.mode&0o111 == 0 {
		t.Fatalf("/flipbook-emulator missing or not executable: %+v", bin)
	}
	for _, d := range []string{"data", "fixtures", "tmp"} {
		if o, ok := owners[d]; !ok || o.uid != 65532 || o.gid != 65532 {
			t.Errorf("/%s: %+v, want a directory of the image's user 65532", d, o)
		}
	}
	for _, shell := range []string{"bin/sh", "bin/bash", "bin/busybox"} {
		if _, ok := owners[shell]; ok {
			t.Errorf("the image holds /%s; it is FROM scratch", shell)
		}
	}
	f, err := elf.Open(filepath.Join(root, "flipbook-emulator"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[arch]
	if f.Machine != want {
		t.Errorf("binary for %v, want %v", f.Machine, want)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary is dynamically linked; a FROM scratch image has no loader")
		}
	}
}

var listening = regexp.MustCompile(`^listening base_url=(http://127\.0\.0\.1:(\d+)/api/v1/) upload_url=`)

// runUnpacked starts the image's entrypoint from the unpacked root (on a
// free loopback port instead of 0.0.0.0:8080, with a fixture from
// /fixtures and state in /data as the README's docker run line gives
// them), waits for the image's health check to pass, and makes signed
// API calls.
func runUnpacked(t *testing.T, root string, cfg imageConfig) {
	fixture := filepath.Join(root, "fixtures", "test.json")
	if err := os.WriteFile(fixture, []byte(`{"generation":{"delayMs":0},"accounts":[{"apiKey":"img-key","secret":"img-secret",
		"templates":[{"templateHash":"tpl","pages":2}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(root, "data", "state.json")
	args := slices.Clone(cfg.Config.Entrypoint)
	args[slices.Index(args, "0.0.0.0:8080")] = "127.0.0.1:0"
	args = append(args, "-fixture", fixture, "-state", state)
	started := time.Now()
	cmd := exec.CommandContext(t.Context(), filepath.Join(root, args[0]), args[1:]...) //nolint:gosec // G204: the binary of the image under test
	cmd.Env = []string{"TMPDIR=" + filepath.Join(root, "tmp")}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := listening.FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("listening line %q: %v\n%s", line, err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	// The image's own HEALTHCHECK command, pointed at the port in use.
	health := slices.Clone(cfg.Config.Healthcheck.Test[1:])
	health[slices.Index(health, "127.0.0.1:8080")] = "127.0.0.1:" + m[2]
	for {
		out, err := exec.CommandContext(t.Context(), filepath.Join(root, health[0]), health[1:]...).CombinedOutput() //nolint:gosec // G204: the image's health check
		if err == nil {
			break
		}
		if time.Since(started) > 10*time.Second {
			t.Fatalf("health check never passed: %v %s", err, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("first health answer %s after the process started", time.Since(started).Round(time.Millisecond))

	base := m[1]
	var stats struct {
		Code int
		Data struct {
			APIUploadsLeft any `json:"api_uploads_left"`
		}
	}
	call(t, base, "GET", map[string]string{"action": "user.getStats"}, &stats)
	if stats.Code != 20 {
		t.Fatalf("user.getStats with the mounted fixture's key: code %d", stats.Code)
	}
	var created struct {
		Code int
		Data struct{ CollectionHash string }
	}
	call(t, base, "POST", map[string]string{"action": "collection.createFromTemplate", "sections": `[{"sectionType":"static","templates":[{"templateHash":"tpl"}]}]`}, &created)
	if created.Code != 20 || created.Data.CollectionHash == "" {
		t.Fatalf("createFromTemplate: %+v", created)
	}
	// State under /data, as -state asks.
	if b, err := os.ReadFile(state); err != nil || !strings.Contains(string(b), created.Data.CollectionHash) {
		t.Fatalf("state file under /data lacks the new collection: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if err := cmd.Wait(); err != nil {
		t.Fatalf("stopping: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "img-secret") {
		t.Fatal("the secret appears in the log")
	}
}

// call makes a signed API call with the test fixture's account (the
// spec's signature: the secret, then keys and values sorted by key, MD5).
func call(t *testing.T, base, method string, params map[string]string, out any) {
	t.Helper()
	p := map[string]string{"apiKey": "img-key"}
	for k, v := range params {
		p[k] = v
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := md5.New() //nolint:gosec // G401: the spec signs with MD5
	h.Write([]byte("img-secret"))
	v := url.Values{}
	for _, k := range keys {
		h.Write([]byte(k + p[k]))
		v.Set(k, p[k])
	}
	v.Set("signature", hex.EncodeToString(h.Sum(nil)))
	var req *http.Request
	var err error
	if method == "GET" {
		req, err = http.NewRequestWithContext(t.Context(), method, base+"?"+v.Encode(), nil)
	} else {
		req, err = http.NewRequestWithContext(t.Context(), method, base, strings.NewReader(v.Encode()))
		if req != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(fmt.Errorf("%s %s: %w", method, params["action"], err))
	}
}

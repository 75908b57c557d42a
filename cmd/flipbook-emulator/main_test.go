package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var listening = regexp.MustCompile(`^listening base_url=(http://127\.0\.0\.1:\d+/api/v1/) upload_url=(http://127\.0\.0\.1:\d+/upload/v1/)\n$`)

// start runs the program in-process and returns its first stdout line.
func start(t *testing.T, args ...string) (line string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(ctx, args, pw, io.Discard)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no listening line: %v (exit %d)", err, <-done)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return line, func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("did not stop")
			return -1
		}
	}
}

func TestRunPrintsListeningLineAndServes(t *testing.T) {
	line, stop := start(t, "-addr", "127.0.0.1:0", "-generation-delay", "10ms")
	m := listening.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("listening line %q", line)
	}
	if strings.TrimSuffix(m[1], "/api/v1/") != strings.TrimSuffix(m[2], "/upload/v1/") {
		t.Fatalf("two addresses: %q", line)
	}
	// Once the line is printed the emulator is ready.
	var health struct{ Status string }
	getJSON(t, strings.TrimSuffix(m[1], "api/v1/")+"_emulator/health", &health)
	if health.Status != "ok" {
		t.Fatalf("health %q", health.Status)
	}
	var list []map[string]any
	getJSON(t, strings.TrimSuffix(m[1], "api/v1/")+"_emulator/collections", &list)
	if len(list) == 0 || list[0]["collectionHash"] != "pub-private-1" {
		t.Fatalf("demo fixture not served: %v", list)
	}
	// An API call without credentials is answered with an envelope.
	var env struct{ Code int }
	getJSON(t, m[1], &env)
	if env.Code != 30 {
		t.Fatalf("code %d", env.Code)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestRunFixtureAndBadFlags(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join(dir, "fx.json")
	if err := os.WriteFile(fx, []byte(`{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"mine"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	line, stop := start(t, "-addr", "127.0.0.1:0", "-fixture", fx, "-state", filepath.Join(dir, "state.json"))
	base := strings.TrimSuffix(listening.FindStringSubmatch(line)[1], "api/v1/")
	var list []map[string]any
	getJSON(t, base+"_emulator/collections", &list)
	if len(list) != 1 || list[0]["collectionHash"] != "mine" {
		t.Fatalf("fixture file not used: %v", list)
	}
	stop()

	for _, args := range [][]string{
		{"-fixture", filepath.Join(dir, "missing.json")},
		{"-nope"},
		{"-addr", "256.0.0.1:0"},
		{"extra"},
	} {
		if code := run(t.Context(), args, io.Discard, io.Discard); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// -version answers at once with the version the release build stamps in,
// without listening.
func TestRunVersion(t *testing.T) {
	var out strings.Builder
	if code := run(t.Context(), []string{"-version", "-addr", "256.0.0.1:0"}, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got, want := out.String(), "flipbook-emulator "+version+" ("+commit+")\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// A fixture's feed file is read relative to the fixture, wherever the
// emulator is started from, and a bad one stops it with file, line and
// column.
func TestRunFeedFile(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join(dir, "fixture.json")
	writeTestFile(t, fx, `{"accounts":[{"apiKey":"k","secret":"s","feeds":[{"sourceHash":"f","file":"feed.csv"}]}]}`)
	writeTestFile(t, filepath.Join(dir, "feed.csv"), "sku,price\nA1,3\n")
	_, stop := start(t, "-addr", "127.0.0.1:0", "-fixture", fx)
	if code := stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}

	writeTestFile(t, filepath.Join(dir, "feed.csv"), "sku,price\nA1,3\nA2\n")
	var stderr strings.Builder
	if code := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-fixture", fx}, io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d with a bad feed file", code)
	}
	if want := filepath.Join(dir, "feed.csv") + ":3:1: row has 1 field, the header names 2 columns"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q lacks %q", stderr.String(), want)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// health exits 0 against a running emulator (also when asked at the
// wildcard address it listens on), 1 when nothing answers or the answer is
// not {"status": "ok"}, 2 for bad flags.
func TestHealthSubcommand(t *testing.T) {
	line, stop := start(t, "-addr", "127.0.0.1:0")
	hp := strings.TrimSuffix(strings.TrimPrefix(listening.FindStringSubmatch(line)[1], "http://"), "/api/v1/")
	_, port, _ := strings.Cut(hp, ":")
	for _, addr := range []string{hp, "0.0.0.0:" + port, ":" + port} {
		var stderr strings.Builder
		if code := run(t.Context(), []string{"health", "-addr", addr}, io.Discard, &stderr); code != 0 {
			t.Errorf("health -addr %s: exit %d: %s", addr, code, stderr.String())
		}
	}
	stop()
	var stderr strings.Builder
	if code := run(t.Context(), []string{"health", "-addr", hp}, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), "refused") {
		t.Errorf("health of a stopped emulator: exit %d: %q", code, stderr.String())
	}

	// Something else on the port: an answer that is not the emulator's.
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"status":"starting"}`))
	}), ReadHeaderTimeout: time.Second}
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	stderr.Reset()
	if code := run(t.Context(), []string{"health", "-addr", ln.Addr().String()}, io.Discard, &stderr); code != 1 || !strings.Contains(stderr.String(), `"starting"`) {
		t.Errorf("health of a wrong answer: exit %d: %q", code, stderr.String())
	}
	for _, args := range [][]string{{"health", "-addr", "nope"}, {"health", "extra"}, {"health", "-x"}} {
		if code := run(t.Context(), args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

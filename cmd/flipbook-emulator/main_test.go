package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
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
	ctx, cancel := context.WithCancel(context.Background())
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
	go io.Copy(io.Discard, pr)
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
	resp, err := http.Get(strings.TrimSuffix(m[1], "api/v1/") + "_emulator/collections")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list) == 0 || list[0]["collectionHash"] != "pub-private-1" {
		t.Fatalf("demo fixture not served: %v", list)
	}
	// An API call without credentials is answered with an envelope.
	resp, err = http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	var env struct{ Code int }
	json.NewDecoder(resp.Body).Decode(&env)
	resp.Body.Close()
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
	os.WriteFile(fx, []byte(`{"accounts":[{"apiKey":"k","secret":"s","collections":[{"collectionHash":"mine"}]}]}`), 0o600)
	line, stop := start(t, "-addr", "127.0.0.1:0", "-fixture", fx, "-state", filepath.Join(dir, "state.json"))
	base := strings.TrimSuffix(listening.FindStringSubmatch(line)[1], "api/v1/")
	resp, err := http.Get(base + "_emulator/collections")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
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
		if code := run(context.Background(), args, io.Discard, io.Discard); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}

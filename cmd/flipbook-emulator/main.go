// Command flipbook-emulator serves the Flipbook Publishing API on loopback
// for tests, demos and offline use (see internal/emulator for what it does).
//
//	flipbook-emulator [-addr HOST:PORT] [-fixture FILE] [-generation-delay DURATION] [-state FILE] [-version]
//	flipbook-emulator health [-addr HOST:PORT]
//
// It prints one line to stdout once it listens,
//
//	listening base_url=http://HOST:PORT/api/v1/ upload_url=http://HOST:PORT/upload/v1/
//
// after which GET /_emulator/health answers {"status": "ok"}; it logs one
// line per API call to stderr and stops cleanly on SIGINT or SIGTERM.
//
// The health subcommand asks a running emulator whether it answers: exit 0
// when GET /_emulator/health at -addr answers {"status": "ok"}, 1 otherwise.
// The container image's HEALTHCHECK runs it, so no shell or curl is needed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// Set by the release build's ldflags.
var (
	version = "dev"
	commit  = "none"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program: it serves until ctx ends and returns the exit
// status. The only line on stdout is the listening line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "health" {
		return health(ctx, args[1:], stderr)
	}
	fs := flag.NewFlagSet("flipbook-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`HOST:PORT` to listen on; port 0 picks a free port")
	fixture := fs.String("fixture", "", "fixture `FILE` (JSON); default: the embedded demo fixture")
	delay := fs.Duration("generation-delay", -1, "how long a generation stays processing (overrides the fixture), e.g. 2s")
	state := fs.String("state", "", "state `FILE` that keeps every account's data across restarts")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "flipbook-emulator: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "flipbook-emulator %s (%s)\n", version, commit)
		return 0
	}
	logger := log.New(stderr, "flipbook-emulator: ", log.LstdFlags)

	opts := emulator.Options{StateFile: *state, Logf: logger.Printf}
	if *fixture != "" {
		fx, err := emulator.LoadFixture(*fixture)
		if err != nil {
			logger.Print(err)
			return 1
		}
		opts.Fixture = fx
	}
	if *delay >= 0 {
		opts.GenerationDelay = delay
	}
	e, err := emulator.New(opts)
	if err != nil {
		logger.Print(err)
		return 1
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		logger.Print(err)
		return 1
	}
	srv := emulator.Serve(e, ln)
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	hp := net.JoinHostPort(host, port)
	fmt.Fprintf(stdout, "listening base_url=http://%s/api/v1/ upload_url=http://%s/upload/v1/\n", hp, hp)

	<-ctx.Done()
	logger.Print("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Printf("shutdown: %v", err)
	}
	return 0
}

// healthTimeout bounds one health check; a container runtime runs it again.
const healthTimeout = 3 * time.Second

// health checks a running emulator and returns the exit status: 0 when it
// answers {"status": "ok"}, 1 otherwise (the reason goes to stderr), 2 for
// bad flags.
func health(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("flipbook-emulator health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`HOST:PORT` of the emulator; an unspecified host (0.0.0.0, ::) asks loopback")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "flipbook-emulator health: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		fmt.Fprintf(stderr, "flipbook-emulator health: -addr %q: %v\n", *addr, err)
		return 2
	}
	// The address the emulator listens on may be a wildcard; the check asks
	// from the same machine.
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	if err := checkHealth(ctx, "http://"+net.JoinHostPort(host, port)+"/_emulator/health"); err != nil {
		fmt.Fprintf(stderr, "flipbook-emulator health: %v\n", err)
		return 1
	}
	return 0
}

func checkHealth(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	var body struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&body); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if body.Status != "ok" {
		return fmt.Errorf("GET %s: status %q, want \"ok\"", url, body.Status)
	}
	return nil
}

package emulator

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Server is an Emulator listening on loopback.
type Server struct {
	Emulator  *Emulator
	URL       string // http://127.0.0.1:PORT
	BaseURL   string // URL + /api/v1/
	UploadURL string // URL + /upload/v1/

	srv  *http.Server
	done chan struct{}
}

// Start builds an Emulator and serves it on 127.0.0.1 at a free port.
func Start(opts Options) (*Server, error) {
	e, err := New(opts)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return Serve(e, ln), nil
}

// Serve serves e on ln until Close.
func Serve(e *Emulator, ln net.Listener) *Server {
	url := "http://" + ln.Addr().String()
	s := &Server{
		Emulator: e, URL: url, BaseURL: url + "/api/v1/", UploadURL: url + "/upload/v1/",
		srv:  &http.Server{Handler: e.Handler(), ReadHeaderTimeout: 10 * time.Second},
		done: make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			e.logf("serve: %v", err)
		}
	}()
	return s
}

// Shutdown stops accepting calls and waits for those under way until ctx
// ends, then closes what remains.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if err != nil {
		s.srv.Close()
	}
	<-s.done
	return err
}

// Close stops the server, giving calls under way a second to finish.
func (s *Server) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.Shutdown(ctx)
}

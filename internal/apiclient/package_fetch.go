package apiclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// PackageFetchError is a failed download of an HTML package from its
// resourceUrl. The URL is a credential for the minute it lives (spec, Limits:
// "Download package URL lifetime: one minute"), so it appears nowhere in the
// error.
type PackageFetchError struct {
	HTTPStatus int   // 0 when no answer came
	Err        error // the transport failure, without the URL
	refused    bool  // the link itself is unusable: asking again cannot help
}

func (e *PackageFetchError) Error() string {
	if e.HTTPStatus != 0 {
		return fmt.Sprintf("downloading the HTML package: the package link answered HTTP %d", e.HTTPStatus)
	}
	return fmt.Sprintf("downloading the HTML package: %v", e.Err)
}

func (e *PackageFetchError) Unwrap() error { return e.Err }

// Expired reports whether the answer is one a link past its minute gives
// (403 or 410), after which a new collection.downloadHTML call returns a
// fresh link to the same package.
func (e *PackageFetchError) Expired() bool {
	return e.HTTPStatus == http.StatusGone || e.HTTPStatus == http.StatusForbidden
}

// Retryable reports whether a fresh link may succeed where this one failed:
// an expired link, a server error, or a transfer cut short. Downloading only
// reads, so trying again is always safe.
func (e *PackageFetchError) Retryable() bool {
	return !e.refused && (e.Expired() || e.HTTPStatus == 0 || e.HTTPStatus >= 500)
}

// FetchPackage streams the package behind resourceURL (collection.downloadHTML's
// resourceUrl) into w and returns the bytes written. It sends no credentials:
// the link alone grants access. Like the base addresses, the link must be
// https://, or http:// to a loopback host unless insecure HTTP was allowed.
func (c *Client) FetchPackage(ctx context.Context, resourceURL string, w io.Writer) (int64, error) {
	u, err := url.Parse(resourceURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return 0, &PackageFetchError{refused: true, Err: errors.New("the service returned a resourceUrl that is not an http(s) URL")}
	}
	if u.Scheme == "http" && !c.cfg.AllowInsecureHTTP && !isLoopbackHost(u.Hostname()) {
		return 0, &PackageFetchError{refused: true, Err: errors.New("the service returned a plain http:// resourceUrl to a host that is not loopback; " +
			"allow insecure HTTP in the provider to download it anyway")}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, &PackageFetchError{refused: true, Err: errors.New("the resourceUrl cannot be requested")}
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	res, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error quotes the URL
		}
		return 0, &PackageFetchError{Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, &PackageFetchError{HTTPStatus: res.StatusCode}
	}
	n, err := io.Copy(w, res.Body)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return n, &PackageFetchError{Err: fmt.Errorf("reading the package after %d bytes: %w", n, err)}
	}
	return n, nil
}

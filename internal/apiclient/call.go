package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// request describes one operation call.
type request struct {
	action   string
	method   string // http.MethodGet or http.MethodPost
	upload   bool   // multipart/form-data to {upload_url}
	mutating bool   // changes state: after an ambiguous failure, onAmbiguous decides
	notify   bool   // setPermissions with notifyViaEmail true (see onAmbiguous)
	params   map[string]string
	file     *Upload

	// The view this call reads or writes (views.go); zero: none.
	reads, writes viewKey
	carries       bool // a write whose answer is the written view
}

// attemptResult is what one HTTP exchange produced.
type attemptResult struct {
	httpStatus int
	env        *envelope
	err        error // transport error or *DecodeError
	sent       bool  // the request may have reached the service
	touched    bool  // the Upload's reader was read
	local      bool  // failed on this side (the Upload's reader): final, not ambiguous
}

// emptyBody is the body of a mutating GET. A request with a non-nil body
// and no GetBody is not "replayable", so net/http never silently re-sends
// it on a reused connection that dies after the request went out; an empty
// body of unknown length is probed and sent as no body at all.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// call is one operation call on its way through the call path. Each layer
// reads what the layers outside it set and fills in its own part.
type call struct {
	req *request
	out any // decoded data goes here; nil: data ignored

	// Set by signing.
	params map[string]string
	red    *redactor

	// Set per attempt: retry numbers it, the exchange fills res, decoding
	// says whether trying again is safe and useful.
	rewinds   bool // the upload, if any, can be rewound for another attempt
	attempt   int
	res       attemptResult
	retryable bool
	waited    bool // the budget refused to admit the attempt: nothing was sent

	// The retry decision for the attempt's error, made once (decide) and
	// shared by the layers that need it (logging reports it, retry acts).
	decided bool
	retry   bool
	backoff time.Duration
}

// step runs a call from one layer inward.
type step func(ctx context.Context, cl *call) error

// layer wraps a step with one concern.
type layer func(next step) step

// chain composes layers around inner, outermost first.
func chain(inner step, layers ...layer) step {
	s := inner
	for _, l := range slices.Backward(layers) {
		s = l(s)
	}
	return s
}

// pipeline is the call path, outermost first: coalescing (views.go) answers
// reads from a fresh view or joins them; signing adds apiKey and signature
// once per call; retry repeats attempts; the budget admits each attempt;
// logging reports it; decoding turns the answer into data or an error; the
// exchange is the HTTP round trip. A new concern is a new layer.
func (c *Client) pipeline() step {
	return chain(c.exchange, c.coalesceLayer, c.signLayer, c.retryLayer, c.budgetLayer, c.logLayer, c.decodeLayer)
}

// call runs one operation and decodes its data into out (nil: ignored).
func (c *Client) call(ctx context.Context, req *request, out any) error {
	return c.do(ctx, &call{req: req, out: out})
}

// signLayer adds action, apiKey and signature, and the redactor that keeps
// all three secrets (secret, key, signature) out of what is logged or
// returned.
func (c *Client) signLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		params := maps.Clone(cl.req.params)
		if params == nil {
			params = map[string]string{}
		}
		params["action"] = cl.req.action
		params["apiKey"] = c.cfg.APIKey
		sig := Sign(c.cfg.Secret, params)
		params[paramSignature] = sig
		cl.params = params
		cl.red = newRedactor(c.cfg.Secret, c.cfg.APIKey, sig)
		return next(ctx, cl)
	}
}

// exchange is one HTTP round trip of the signed call.
func (c *Client) exchange(ctx context.Context, cl *call) error {
	cl.res = c.attempt(ctx, cl.req, cl.params, cl.red)
	return cl.res.err
}

// decodeLayer turns the exchange's result into the call's outcome: the
// data decoded into out, or the error to return and whether trying again
// is safe and useful.
func (c *Client) decodeLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		_ = next(ctx, cl) // the result is in cl.res
		retryable, err := c.classify(ctx, cl.req, cl.res, cl.red, cl.out)
		cl.retryable = retryable
		return err
	}
}

// classify turns an attempt into whether trying again is safe and useful,
// and the error to return (nil on success).
func (c *Client) classify(ctx context.Context, req *request, res attemptResult, red *redactor, out any) (bool, error) {
	if res.local {
		return false, res.err
	}
	if res.err != nil {
		var de *DecodeError
		isDecode := errors.As(res.err, &de)
		if !isDecode {
			res.err = &TransportError{Action: req.action, Sent: res.sent, Err: res.err}
		}
		if req.mutating && (res.sent || isDecode) {
			return c.ambiguous(ctx, req, res.err)
		}
		if ctx.Err() != nil {
			return false, res.err
		}
		// Reads retry anything; mutating calls only what provably never left.
		return true, res.err
	}
	code := int(res.env.Code.Value)
	switch code {
	case CodePerSecondLimit, CodePerMinuteLimit, CodeMaintenance:
		// The service turned the call away before acting.
		return true, redactAPIError(res.env.apiError(req.action), red)
	case CodeOK:
		if out == nil {
			return false, nil
		}
		// A failed earlier attempt may have filled part of out: start clean.
		reflect.ValueOf(out).Elem().SetZero()
		if err := decodeData(res.env.Data, out); err != nil {
			de := &DecodeError{Action: req.action, HTTPStatus: res.httpStatus,
				Reason: "unexpected data: " + red.redact(err.Error()), Err: err,
				Snippet: snippet(res.env.Data, red)}
			if req.mutating {
				return c.ambiguous(ctx, req, de)
			}
			return true, de
		}
		return false, nil
	default:
		ae := redactAPIError(res.env.apiError(req.action), red)
		if req.mutating && ambiguousOn(req.action, code) {
			return c.ambiguous(ctx, req, ae)
		}
		retry := !req.mutating && (res.httpStatus >= 500 || code == CodeOperationFailed)
		return retry, ae
	}
}

// ambiguous applies onAmbiguous (policy.go) to a mutating call that failed
// after its request may have reached the service: an *OutcomeUnknownError,
// retried only when re-sending is safe.
func (c *Client) ambiguous(ctx context.Context, req *request, err error) (bool, error) {
	ou := &OutcomeUnknownError{Action: req.action, Err: err}
	return onAmbiguous(req.action, req.notify) == resend && ctx.Err() == nil, ou
}

// redactAPIError scrubs what the service echoed into the message and errors.
func redactAPIError(ae *APIError, red *redactor) *APIError {
	ae.Status = red.redact(ae.Status)
	ae.Message = red.redact(ae.Message)
	for i := range ae.Errors {
		ae.Errors[i] = red.redact(ae.Errors[i])
	}
	return ae
}

// attempt performs one HTTP exchange.
func (c *Client) attempt(ctx context.Context, req *request, params map[string]string, red *redactor) attemptResult {
	var sent atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		// Complete headers are the least the service needs to act; before
		// that the request provably did nothing.
		WroteHeaders: func() { sent.Store(true) },
	})
	httpReq, mp, err := c.newHTTPRequest(ctx, req, params)
	if err != nil {
		return attemptResult{err: err}
	}
	res := attemptResult{}
	if mp != nil {
		defer func() { mp.finish() }()
	}
	resp, err := c.http.Do(httpReq)
	if mp != nil {
		res.touched = mp.fileTouched()
	}
	if err != nil {
		if mp != nil {
			mp.finish()
			if lerr := mp.localFailure(); lerr != nil {
				// The upload's own reader failed: the body never completed,
				// so the service cannot have acted on it.
				res.local = true
				res.err = fmt.Errorf("flipbook API %s: reading the upload failed, nothing was sent: %w", req.action, lerr)
				return res
			}
		}
		res.err = red.redactError(err)
		res.sent = sent.Load()
		return res
	}
	defer resp.Body.Close()
	res.sent = true
	res.httpStatus = resp.StatusCode
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		res.err = &DecodeError{Action: req.action, HTTPStatus: resp.StatusCode,
			Reason: "reading the body failed: " + red.redact(err.Error()), Err: red.redactError(err),
			Snippet: snippet(body, red)}
		return res
	}
	if len(body) > maxBodyBytes {
		res.err = &DecodeError{Action: req.action, HTTPStatus: resp.StatusCode,
			Reason: fmt.Sprintf("body larger than %d bytes", maxBodyBytes), Snippet: snippet(body, red)}
		return res
	}
	env, err := decodeEnvelope(body)
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			de.Action = req.action
			de.HTTPStatus = resp.StatusCode
			de.Snippet = snippet(body, red)
			de.Reason = red.redact(de.Reason)
		}
		res.err = err
		return res
	}
	res.env = env
	if mp != nil {
		res.touched = mp.fileTouched()
	}
	return res
}

// newHTTPRequest builds the request for one attempt: a GET with the query,
// a urlencoded POST, or a streamed multipart POST to {upload_url}.
func (c *Client) newHTTPRequest(ctx context.Context, req *request, params map[string]string) (*http.Request, *multipartBody, error) {
	values := make(url.Values, len(params))
	for k, v := range params {
		values.Set(k, v)
	}
	var (
		httpReq *http.Request
		mp      *multipartBody
		err     error
	)
	switch {
	case req.upload:
		mp = newMultipartBody(params, req.file)
		httpReq, err = http.NewRequestWithContext(ctx, http.MethodPost, c.uploadURL.String(), mp)
		if err == nil {
			httpReq.Header.Set("Content-Type", mp.ContentType())
		}
	case req.method == http.MethodPost:
		httpReq, err = http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL.String(), strings.NewReader(values.Encode()))
		if err == nil {
			httpReq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	default:
		u := *c.baseURL
		u.RawQuery = values.Encode()
		httpReq, err = http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err == nil && req.mutating {
			httpReq.Body = emptyBody{}
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("flipbook API %s: building the request: %w", req.action, err)
	}
	httpReq.Header.Set("User-Agent", c.cfg.UserAgent)
	return httpReq, mp, nil
}

// uploadRewinder returns a function that puts a seekable Upload back where
// it started, so a throttled upload can be sent again; nil when there is
// no file. A file that cannot seek is sent at most once.
func uploadRewinder(u *Upload) func() error {
	if u == nil || u.Body == nil {
		return nil
	}
	s, ok := u.Body.(io.Seeker)
	if !ok {
		return nil
	}
	pos, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil // not seekable after all (a pipe behind *os.File)
	}
	return func() error {
		_, err := s.Seek(pos, io.SeekStart)
		return err
	}
}

// marshalJSON writes compact JSON without HTML escaping, so the value sent
// (and signed) reads as the user wrote it.
func marshalJSON(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

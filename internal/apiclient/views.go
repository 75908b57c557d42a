package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"time"
)

// DefaultViewTTL is how long an answer of collection.getCollection or
// collection.getPermissions is reused after it arrived (Config.ViewTTL).
// It bounds reuse within one long operation; the operation itself (one
// Client) is the real scope. A few seconds is not enough: Terraform starts
// every collection's read before the reads of the resources that depend on
// it (its parallelism slots are handed out first come, first served), and
// under the budget those wait behind the rest, so the resources of one
// collection read it tens of seconds apart in a larger configuration. The
// mixed scenario of `make bench` with 40 collections at 5 calls a second
// made 3.02 calls per collection for a plan and 6.90 for the apply with 5 s,
// 2.00 and 6.05 with two minutes (with 15 collections both gave 2.00).
const DefaultViewTTL = 2 * time.Minute

// viewKey names one view: what one read action answers for one collection.
type viewKey struct{ action, hash string }

func (k viewKey) zero() bool { return k == viewKey{} }

// collectionView and permissionsView name the two views of a collection.
func collectionView(hash string) viewKey  { return viewKey{ActionGetCollection, hash} }
func permissionsView(hash string) viewKey { return viewKey{ActionGetPermissions, hash} }

// views is the coalescing layer's memory: the last answer of each view,
// and the reads and writes of each view in flight. Its freshness rule:
//
//  1. An answer is reused only by the Client that read it, and for at most
//     ttl after it arrived. The provider builds a Client in every
//     Configure, that is once per Terraform graph walk (plan, apply,
//     refresh, import), so no answer ever outlives the operation that read
//     it: the next plan reads the service again and sees any change made
//     outside Terraform. Within an operation, Terraform treats what it
//     refreshed as one snapshot taken at the start; a resource that reuses
//     an answer read moments before for another resource of the same
//     collection sees that snapshot, no older.
//  2. A write of this Client to a view (setLogo, deleteBackgroundImage,
//     flipbook.add on the collection; setPermissions on the access list)
//     forgets it when the write starts and again when it ends, whatever
//     the outcome, and a read that was in flight at any moment of a write
//     is never kept nor joined by a later read: no read ever shows an answer
//     older than a write this Client made. A write whose answer is the view
//     itself (spec: setLogo and deleteBackgroundImage answer "the same as
//     collection.getCollection") leaves that answer as the fresh view, when
//     no other write of the view overlapped it; reads issued while such a
//     write is in flight wait for its answer.
//  3. Reads that ask for the same view at the same time share one call.
//     Status polls and the reads that decide whether an ambiguous write
//     landed never reuse an answer or join a read (they exist to see a
//     change); what they read becomes the fresh view.
type views struct {
	ttl time.Duration // <= 0: nothing is reused, joined or tracked
	now func() time.Time

	mu sync.Mutex
	m  map[viewKey]*view
}

// view is one view's state. Callers hold views.mu.
type view struct {
	gen      uint64          // changes whenever a write of the view starts or ends
	writing  int             // writes in flight
	carrying int             // of which writes whose answer is the view
	idle     chan struct{}   // closed when carrying drops to zero
	data     json.RawMessage // the fresh answer's data; nil: none
	at       time.Time       // when data arrived
	flight   *flight         // the read of gen that later reads may join
}

// flight is one read in flight.
type flight struct {
	done chan struct{}
	data json.RawMessage
	err  error
}

// maxViews bounds the views remembered; beyond it, idle stale ones go.
const maxViews = 4096

type freshReadKey struct{}

// WithFreshRead marks reads that must reach the service: they neither reuse
// an answer nor join a read in flight (the answer is kept for later reads).
// Read-backs after a write use it, and so do the provider's data sources: a
// data source is read when the user's configuration asks, possibly after a
// change made outside Terraform earlier in the same apply.
func WithFreshRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, freshReadKey{}, true)
}

func isFreshRead(ctx context.Context) bool {
	fresh, _ := ctx.Value(freshReadKey{}).(bool)
	low, _ := ctx.Value(lowPriorityKey{}).(bool) // status polls
	return fresh || low
}

func newViews(ttl time.Duration, now func() time.Time) *views {
	return &views{ttl: ttl, now: now, m: map[viewKey]*view{}}
}

// get returns k's view, creating it. Callers hold v.mu.
func (vs *views) get(k viewKey) *view {
	v := vs.m[k]
	if v == nil {
		if len(vs.m) >= maxViews {
			vs.sweep()
		}
		v = &view{idle: make(chan struct{})}
		vs.m[k] = v
	}
	return v
}

// sweep forgets the views nothing uses and whose answer is stale. Callers
// hold v.mu.
func (vs *views) sweep() {
	now := vs.now()
	for k, v := range vs.m {
		if v.writing == 0 && v.flight == nil && (v.data == nil || now.Sub(v.at) >= vs.ttl) {
			delete(vs.m, k)
		}
	}
}

// read answers a read of k: from the fresh view, by joining a read of the
// same view in flight, or by calling fetch (which returns the answer's
// data) and keeping its answer when rule 2 allows. shared says the answer
// came from another call.
func (vs *views) read(ctx context.Context, k viewKey, fresh bool, fetch func() (json.RawMessage, error)) (data json.RawMessage, shared bool, err error) {
	if vs.ttl <= 0 {
		data, err := fetch()
		return data, false, err
	}
	for {
		vs.mu.Lock()
		v := vs.get(k)
		if !fresh {
			if v.data != nil && vs.now().Sub(v.at) < vs.ttl {
				data := v.data
				vs.mu.Unlock()
				return data, true, nil
			}
			if v.carrying > 0 {
				idle := v.idle
				vs.mu.Unlock()
				select {
				case <-idle:
					continue
				case <-ctx.Done():
					return nil, false, ctx.Err()
				}
			}
			if f := v.flight; f != nil {
				vs.mu.Unlock()
				select {
				case <-f.done:
				case <-ctx.Done():
					return nil, false, ctx.Err()
				}
				if f.err != nil && isContextError(f.err) && ctx.Err() == nil {
					continue // the leader gave up, not this caller
				}
				return f.data, true, f.err
			}
		}
		gen, quiet := v.gen, v.writing == 0
		f := &flight{done: make(chan struct{})}
		if quiet && !fresh {
			v.flight = f
		}
		vs.mu.Unlock()

		f.data, f.err = fetch()

		vs.mu.Lock()
		if v.flight == f {
			v.flight = nil
		}
		if f.err == nil && quiet && v.gen == gen && v.writing == 0 {
			v.data, v.at = f.data, vs.now()
		}
		vs.mu.Unlock()
		close(f.done)
		return f.data, false, f.err
	}
}

// write runs a write of k (rule 2): send performs it and returns the
// answer's data when that data is the view itself (nil otherwise).
func (vs *views) write(k viewKey, carries bool, send func() (json.RawMessage, error)) error {
	if vs.ttl <= 0 {
		_, err := send()
		return err
	}
	vs.mu.Lock()
	v := vs.get(k)
	v.gen++
	v.writing++
	if carries {
		v.carrying++
	}
	v.data, v.flight = nil, nil
	mine := v.gen
	vs.mu.Unlock()

	data, err := send()

	vs.mu.Lock()
	defer vs.mu.Unlock()
	v.writing--
	if carries {
		v.carrying--
		if v.carrying == 0 {
			close(v.idle)
			v.idle = make(chan struct{})
		}
	}
	overlapped := v.gen != mine || v.writing > 0
	v.gen++
	v.data, v.flight = nil, nil
	if err == nil && data != nil && !overlapped {
		v.data, v.at = data, vs.now()
	}
	return err
}

func isContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// coalesceLayer applies the views' freshness rule to the calls that read
// or write a view; other calls pass through. A call answered from a view
// or a shared read decodes that answer's data into its own out, so no two
// callers share a value.
func (c *Client) coalesceLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		req := cl.req
		// answerData is the data of the call's own success answer.
		answerData := func() json.RawMessage {
			if cl.res.env == nil {
				return nil
			}
			return cl.res.env.Data
		}
		switch {
		case !req.reads.zero():
			data, shared, err := c.views.read(ctx, req.reads, isFreshRead(ctx), func() (json.RawMessage, error) {
				if err := next(ctx, cl); err != nil {
					return nil, err
				}
				return answerData(), nil
			})
			if err != nil || !shared || cl.out == nil {
				return err
			}
			c.logShared(ctx, req)
			reflect.ValueOf(cl.out).Elem().SetZero()
			return decodeData(data, cl.out)
		case !req.writes.zero():
			return c.views.write(req.writes, req.carries, func() (json.RawMessage, error) {
				if err := next(ctx, cl); err != nil {
					return nil, err
				}
				if !req.carries || !isJSONFormat(req.params) {
					return nil, nil
				}
				return answerData(), nil
			})
		}
		return next(ctx, cl)
	}
}

// isJSONFormat: the answer was asked for in JSON (the default), the shape
// getCollection answers in.
func isJSONFormat(p map[string]string) bool {
	f := p["format"]
	return f == "" || f == FormatJSON
}

func (c *Client) logShared(ctx context.Context, req *request) {
	if c.cfg.Logger == nil {
		return
	}
	c.cfg.Logger.Log(ctx, LevelTrace, "flipbook API read answered from a fresh or shared answer", map[string]any{
		"action": req.action, "collection_hash": req.reads.hash,
	})
}

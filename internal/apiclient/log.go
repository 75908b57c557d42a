package apiclient

import (
	"context"
	"net/http"
)

// logLayer reports every attempt to the Logger once it is over: what was
// called, how long the exchange took, what came back, and whether it is
// retried (decide). Fields pass through the call's redactor.
func (c *Client) logLayer(next step) step {
	return func(ctx context.Context, cl *call) error {
		if c.cfg.Logger == nil {
			return next(ctx, cl)
		}
		start := c.now()
		err := next(ctx, cl)
		elapsed := c.now().Sub(start)
		req, res := cl.req, cl.res
		retry, backoff := c.decide(ctx, cl, err)
		host, method := c.baseURL.Host, req.method
		if req.upload {
			host, method = c.uploadURL.Host, http.MethodPost
		}
		fields := map[string]any{
			"action":      req.action,
			"method":      method,
			"host":        host,
			"attempt":     cl.attempt,
			"duration_ms": elapsed.Milliseconds(),
			"retry":       retry,
		}
		if res.httpStatus != 0 {
			fields["http_status"] = res.httpStatus
		}
		if res.env != nil {
			fields["code"] = int(res.env.Code.Value)
		}
		if retry {
			fields["backoff_ms"] = backoff.Milliseconds()
		}
		level, msg := LevelDebug, "flipbook API call succeeded"
		if err != nil {
			fields["error"] = cl.red.redact(err.Error())
			level, msg = LevelWarn, "flipbook API call failed"
			if retry {
				msg = "flipbook API call failed; retrying"
			}
		}
		c.cfg.Logger.Log(ctx, level, msg, fields)
		return err
	}
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/flipbook/terraform-provider-flipbook/internal/apiclient"
)

// tfLogger forwards the client's events to tflog. The client already redacts
// apiKey and signature; the masks here are a second line so that neither the
// key nor the secret can reach a log even through a field the client did not
// anticipate.
type tfLogger struct {
	masks []string
}

func newTFLogger(apiKey, secret string) apiclient.Logger {
	var masks []string
	for _, s := range []string{apiKey, secret} {
		if s != "" {
			masks = append(masks, s)
		}
	}
	return tfLogger{masks: masks}
}

func (l tfLogger) Log(ctx context.Context, level apiclient.LogLevel, msg string, fields map[string]any) {
	ctx = tflog.SetField(ctx, "subsystem", "flipbook-api")
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "apiKey", "signature", "api_key", "api_secret", "secret")
	ctx = tflog.MaskAllFieldValuesStrings(ctx, l.masks...)
	ctx = tflog.MaskMessageStrings(ctx, l.masks...)
	switch level {
	case apiclient.LevelTrace:
		tflog.Trace(ctx, msg, fields)
	case apiclient.LevelDebug:
		tflog.Debug(ctx, msg, fields)
	case apiclient.LevelInfo:
		tflog.Info(ctx, msg, fields)
	default:
		tflog.Warn(ctx, msg, fields)
	}
}

// progressLogger turns wait progress into tflog lines in the caller's context.
func progressLogger(ctx context.Context) apiclient.ProgressFunc {
	return func(p apiclient.Progress) {
		tflog.Info(ctx, "waiting for "+p.What, map[string]any{
			"hash": p.Hash, "status": p.Status, "polls": p.Polls, "elapsed": p.Elapsed.String(),
		})
	}
}

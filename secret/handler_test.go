package secret

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	const pw = "s3cret-Password!"
	var buf bytes.Buffer
	var set Set
	set.Add("pw", pw)
	log := slog.New(NewHandler(slog.NewJSONHandler(&buf, nil), &set))

	type form struct {
		Email, Password string
	}
	log.Info("typed "+pw, "value", pw)
	log.Info("form", "form", form{"ann@example.com", pw}, "ptr", &form{Password: pw})
	log.Info("err", "err", fmt.Errorf("fill: %w", errors.New("rejected "+pw)))
	log.With("early", pw).WithGroup("g").Info("grouped", slog.Group("inner", "v", pw, "n", 3))
	log.Info("heuristic", "tok", githubToken, "v", New("pw", pw))
	log.LogAttrs(context.Background(), slog.LevelWarn, "attrs", slog.String("s", "x"+pw+"x"))

	out := buf.String()
	for _, leak := range []string{pw, githubToken} {
		if strings.Contains(out, leak) {
			t.Errorf("log holds %q:\n%s", leak, out)
		}
	}
	for _, want := range []string{`"typed «secret:pw»"`, `"g":{"inner":{"v":"«secret:pw»","n":3}}`, `"early":"«secret:pw»"`, `"tok":"«secret»"`, `"v":"[redacted]"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
}

// A value added after a logger took attributes is still masked in them.
func TestHandlerLateAdd(t *testing.T) {
	const pw = "late-added-value"
	var buf bytes.Buffer
	var set Set
	log := slog.New(NewHandler(slog.NewTextHandler(&buf, nil), &set)).With("url", "https://x.example/?p="+pw)
	log.Info("before")
	set.Add("pw", pw)
	buf.Reset()
	log.Info("after")
	if strings.Contains(buf.String(), pw) {
		t.Errorf("log holds the value added late:\n%s", buf.String())
	}
}

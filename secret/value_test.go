package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

const bytesOfSecret = "hunter2-Zq9"

func TestValueFormats(t *testing.T) {
	v := New("password", bytesOfSecret)
	type holder struct {
		User string
		Pass Value
		pass Value // unexported: fmt cannot call its methods
		ptr  *Value
	}
	h := holder{User: "ann", Pass: v, pass: v, ptr: &v}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3v"} {
		for _, x := range []any{v, &v, h, &h, []Value{v}, map[string]Value{"k": v}} {
			got := fmt.Sprintf(verb, x)
			if strings.Contains(got, bytesOfSecret) || strings.Contains(got, fmt.Sprintf("%x", bytesOfSecret)) {
				t.Errorf("Sprintf(%q, %T) = %s: shows the secret", verb, x, got)
			}
		}
	}
	if got := fmt.Sprintf("%q", v); got != `"[redacted]"` {
		t.Errorf("%%q = %s", got)
	}
	if got := v.String(); got != "[redacted]" {
		t.Errorf("String() = %s", got)
	}
	if v.Reveal() != bytesOfSecret || v.Name() != "password" {
		t.Errorf("Reveal/Name = %q/%q", v.Reveal(), v.Name())
	}
	if (Value{}).Reveal() != "" {
		t.Error("zero Value reveals something")
	}
}

func TestValueMarshal(t *testing.T) {
	v := New("token", bytesOfSecret)
	b, err := json.Marshal(struct {
		Token Value            `json:"token"`
		Ptr   *Value           `json:"ptr"`
		Map   map[string]Value `json:"map"`
	}{v, &v, map[string]Value{"a": v}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"token":"[redacted]","ptr":"[redacted]","map":{"a":"[redacted]"}}`
	if string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
	txt, _ := v.MarshalText()
	if string(txt) != "[redacted]" {
		t.Errorf("MarshalText = %s", txt)
	}
}

func TestValueLogs(t *testing.T) {
	v := New("token", bytesOfSecret)
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("login", "token", v, "holder", struct{ T Value }{v}, slog.Any("ptr", &v))
	}
	if strings.Contains(buf.String(), bytesOfSecret) {
		t.Errorf("log shows the secret:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "[redacted]") {
		t.Errorf("log lacks [redacted]:\n%s", buf.String())
	}
}

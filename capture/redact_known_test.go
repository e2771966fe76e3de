package capture

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// The probe of the architecture review (§1.3): a passphrase the driver
// tells the redactor (a value typed as a secret), echoed by a response
// body as it is, hex-encoded, and inside a longer base64 (a Basic
// credential). Response bodies are redacted with entropy off, so only
// the known-value matcher can catch the last two; before it was
// secret.Set's, the hex and the base64 stayed readable.
func TestRedactorKnownEncodings(t *testing.T) {
	const pw = "correct horse battery"
	basic := base64.StdEncoding.EncodeToString([]byte("ann:" + pw))
	bodies := map[string]string{
		"plain":        `{"echo":"` + pw + `"}`,
		"hex":          `{"echo":"` + hex.EncodeToString([]byte(pw)) + `"}`,
		"hex upper":    `{"echo":"` + strings.ToUpper(hex.EncodeToString([]byte(pw))) + `"}`,
		"basic-inside": `{"echo":"Basic ` + basic + `"}`,
		"html":         `<p>` + strings.ReplaceAll(pw, " ", " ") + `</p>`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			r := NewRedactor([]byte("k"))
			marker := r.Secret("secret", pw)
			out := r.Body("application/json", body, false)
			if out == body || !strings.Contains(out, marker) {
				t.Fatalf("Body(%q) = %q: the typed value is not replaced by its marker %s", body, out, marker)
			}
			for _, leak := range []string{pw, hex.EncodeToString([]byte(pw)), basic[8 : len(basic)-2]} {
				if strings.Contains(out, leak) {
					t.Errorf("Body(%q) = %q still holds %q", body, out, leak)
				}
			}
		})
	}
}

package capture

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// TestHARWholeAndRedacted: the HAR keeps what HAR 1.2 has a place for (a
// Set-Cookie's path, httpOnly and secure; a posted form's params), its
// response text says its encoding and decodes, and nothing secret is in
// it, encoded or not. The hand-written types had no place for the
// cookie's attributes or the form's params.
func TestHARWholeAndRedacted(t *testing.T) {
	const tok = "Zq8xW3pL0vN7kR2mT5yB9cF4"
	f := &File{Format: Format, Exchanges: []Exchange{
		{ID: "e1", Kind: "document", Method: "POST", URL: "https://x.test/login", Status: 200, MimeType: "application/json",
			RequestHeaders:  []Header{{"Content-Type", "application/x-www-form-urlencoded"}},
			RequestBody:     "user=ann&password=" + tok,
			ResponseHeaders: []Header{{"Set-Cookie", "sid=" + tok + "; Path=/; HttpOnly; Secure"}},
			ResponseBody:    `{"ok":true,"token":"` + tok + `"}`},
	}}
	raw, err := json.Marshal(ToHAR(NewRedactor(NewKey()).File(f), "1.0"))
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Log struct {
			Version string
			Entries []struct {
				Request struct {
					PostData struct {
						MimeType string
						Params   []struct{ Name, Value string }
					}
				}
				Response struct {
					Cookies []struct {
						Name, Value, Path string
						HTTPOnly          bool `json:"httpOnly"`
						Secure            bool
					}
					Content struct {
						Size     int
						MimeType string
						Text     string
						Encoding string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	if h.Log.Version != "1.2" || len(h.Log.Entries) != 1 {
		t.Fatalf("log: %s", raw)
	}
	e := h.Log.Entries[0]
	if cs := e.Response.Cookies; len(cs) != 1 || cs[0].Name != "sid" || cs[0].Path != "/" || !cs[0].HTTPOnly || !cs[0].Secure {
		t.Errorf("response cookies: %+v", cs)
	}
	if ps := e.Request.PostData.Params; len(ps) != 2 || ps[0].Name != "user" || ps[0].Value != "ann" || ps[1].Name != "password" {
		t.Errorf("posted params: %+v", ps)
	}
	c := e.Response.Content
	text := []byte(c.Text)
	if c.Encoding == "base64" {
		if text, err = base64.StdEncoding.DecodeString(c.Text); err != nil {
			t.Fatalf("content text is not the base64 it says: %v", err)
		}
	}
	if !strings.Contains(string(text), `"ok":true`) || c.Size <= 0 {
		t.Errorf("content %+v reads %q", c, text)
	}
	for what, s := range map[string]string{"the HAR": string(raw), "the response text": string(text)} {
		if strings.Contains(s, tok) {
			t.Errorf("%s keeps the token: %s", what, s)
		}
	}
}

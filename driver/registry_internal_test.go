package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

const regValue = "correct horse battery staple"

func registrySession() *Session {
	s := &Session{log: newPageLog()}
	s.register("memo", regValue)
	return s
}

// TestMaskReplyNumbers: a secret of digits a page or an API gives back
// as a JSON number is masked too: in raw JSON (which then goes as a
// string) and in decoded rows (review of issue 27: it came back raw).
func TestMaskReplyNumbers(t *testing.T) {
	s := &Session{log: newPageLog()}
	s.register("pin", "48213")
	reply := &struct {
		Raw  json.RawMessage
		Rows []map[string]any
	}{Raw: json.RawMessage(`{"pin":48213}`), Rows: []map[string]any{{"pin": float64(48213), "n": float64(7)}}}
	s.MaskReply(reply)
	b, _ := json.Marshal(reply)
	if strings.Contains(string(b), "48213") || !json.Valid(reply.Raw) || reply.Rows[0]["n"] != float64(7) {
		t.Fatalf("masked reply %s", b)
	}
}

// TestMaskReply: every string a reply holds, however deep (pointers,
// slices, maps, values behind an interface, JSON), leaves masked; bytes
// that are not JSON (a picture) are left as they are.
func TestMaskReply(t *testing.T) {
	s := registrySession()
	type inner struct {
		Lines []string
		ByKey map[string]string
		Any   any
	}
	reply := &struct {
		URL   string
		Inner *inner
		List  []inner
		Raw   json.RawMessage
		Data  []byte
		Notes []calls.Notice
	}{
		URL:   "https://x.example/?m=correct%20horse%20battery%20staple",
		Inner: &inner{Lines: []string{"typed " + regValue}, ByKey: map[string]string{"k": regValue}, Any: map[string]any{"deep": []any{regValue}}},
		List:  []inner{{Any: regValue}},
		Raw:   json.RawMessage(`{"title":"Saved ` + regValue + `"}`),
		Data:  []byte(regValue),
		Notes: []calls.Notice{{Kind: "dialog", Message: "you said " + regValue}},
	}
	s.MaskReply(reply)
	b, _ := json.Marshal(struct {
		URL   string
		Inner *inner
		List  []inner
		Raw   json.RawMessage
		Notes []calls.Notice
	}{reply.URL, reply.Inner, reply.List, reply.Raw, reply.Notes})
	if strings.Contains(string(b), regValue) || strings.Contains(string(b), "correct%20horse") {
		t.Errorf("a reply still holds the value: %s", b)
	}
	if !strings.Contains(string(b), "«secret:memo»") {
		t.Errorf("a reply does not name the secret: %s", b)
	}
	if string(reply.Data) != regValue {
		t.Errorf("bytes were changed: %q", reply.Data)
	}
	// An empty registry changes nothing.
	empty := &Session{log: newPageLog()}
	r := &calls.PageInfo{Title: regValue}
	empty.MaskReply(r)
	if r.Title != regValue {
		t.Errorf("an empty registry masked %q", r.Title)
	}
}

// TestMaskErr: a message and a hint are masked, the category is kept.
func TestMaskErr(t *testing.T) {
	s := registrySession()
	err := fmt.Errorf("open: %w", calls.Errorf(calls.ErrNoMatch, "look for "+regValue, "no %q on the page", regValue))
	got := s.MaskErr(err)
	if !errors.Is(got, calls.ErrNoMatch) || strings.Contains(got.Error(), regValue) || strings.Contains(calls.Hint(got), regValue) {
		t.Errorf("MaskErr = %v (hint %q)", got, calls.Hint(got))
	}
	plain := errors.New("page said " + regValue)
	if got := s.MaskErr(plain); strings.Contains(got.Error(), regValue) || !errors.Is(got, plain) {
		t.Errorf("MaskErr(plain) = %v", got)
	}
}

// TestFormOfMasks: a held send's approval masks fields the way a submit's
// does (secret.Field and secret.Name, as secret.Masked) and values typed
// as secrets wherever they are; "shipping" is no secret, "otp" is one.
func TestFormOfMasks(t *testing.T) {
	typed := new(secret.Set)
	typed.Add("memo", regValue)
	r := &network.Request{URL: "https://x.example/apply", PostDataEntries: []*network.PostDataEntry{{Bytes: []byte("shipping=express&otp=482913&pin=1234&csrf_token=abc123def&note=" + strings.ReplaceAll(regValue, " ", "+") + "&name=Ann")}}}
	got := formOf(r, typed)
	want := map[string]string{"shipping": "express", "otp": secret.Masked, "pin": secret.Masked, "csrf_token": secret.Masked, "note": "«secret:memo»", "name": "Ann"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("formOf[%s] = %q, want %q", k, got[k], v)
		}
	}
}

package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		msg  Message
		line string
		kind Kind
	}{
		{
			name: "hello",
			msg:  Message{V: Version, Hello: &Hello{Binary: "v1.2.3", PID: 42}},
			line: `{"v":"waymark.rpc/1","hello":{"binary":"v1.2.3","pid":42}}`,
			kind: KindHello,
		},
		{
			name: "request",
			msg:  Message{V: Version, ID: 7, Session: "default", Method: "click", Params: json.RawMessage(`{"ref":"e53"}`)},
			line: `{"v":"waymark.rpc/1","id":7,"session":"default","method":"click","params":{"ref":"e53"}}`,
			kind: KindRequest,
		},
		{
			name: "request without params",
			msg:  Message{V: Version, ID: 1, Method: "daemon.status"},
			line: `{"v":"waymark.rpc/1","id":1,"method":"daemon.status"}`,
			kind: KindRequest,
		},
		{
			name: "result",
			msg:  Message{ID: 7, Result: json.RawMessage(`{"url":"https://example.com/"}`)},
			line: `{"id":7,"result":{"url":"https://example.com/"}}`,
			kind: KindResult,
		},
		{
			name: "error",
			msg:  Message{ID: 7, Error: &Error{Code: "stale_ref", Message: "no element e53", Hint: "run waymark snapshot"}},
			line: `{"id":7,"error":{"code":"stale_ref","message":"no element e53","hint":"run waymark snapshot"}}`,
			kind: KindError,
		},
		{
			name: "event",
			msg:  Message{ID: 7, Event: json.RawMessage(`{"progress":0.5}`)},
			line: `{"id":7,"event":{"progress":0.5}}`,
			kind: KindEvent,
		},
		{
			name: "cancel",
			msg:  Message{ID: 7, Cancel: true},
			line: `{"id":7,"cancel":true}`,
			kind: KindCancel,
		},
		{
			name: "escapes in strings",
			msg:  Message{ID: 3, Error: &Error{Code: "internal", Message: "line1\nline2 \"q\" <b>"}},
			line: `{"id":3,"error":{"code":"internal","message":"line1\nline2 \"q\" \u003cb\u003e"}}`,
			kind: KindError,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := NewWriter(&buf, 0).Write(&tt.msg); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.line+"\n" {
				t.Errorf("line:\n got %s\nwant %s", got, tt.line)
			}
			// The hand-written encoder agrees with encoding/json.
			std, _ := json.Marshal(&tt.msg)
			if buf.String() != string(std)+"\n" {
				t.Errorf("differs from encoding/json:\n got %s\nwant %s", buf.String(), std)
			}
			got, err := NewReader(&buf, 0).Read()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.msg, got); diff != "" {
				t.Errorf("read back (-want +got):\n%s", diff)
			}
			if k, err := got.Kind(); k != tt.kind || err != nil {
				t.Errorf("Kind() = %v, %v; want %v", k, err, tt.kind)
			}
		})
	}
}

func TestWriterCompactsIndentedRaw(t *testing.T) {
	var buf bytes.Buffer
	m := &Message{ID: 1, Result: json.RawMessage("{\n  \"a\": 1\n}")}
	if err := NewWriter(&buf, 0).Write(m); err != nil {
		t.Fatal(err)
	}
	if want := `{"id":1,"result":{"a":1}}` + "\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	bad := &Message{ID: 1, Result: json.RawMessage("{\n")}
	if err := NewWriter(&buf, 0).Write(bad); err == nil {
		t.Error("invalid raw result with a newline was written")
	}
}

func TestMaxLineSize(t *testing.T) {
	const max = 64
	short := `{"id":1,"result":"` + strings.Repeat("a", max-20) + `"}` // exactly max bytes
	long := `{"id":2,"result":"` + strings.Repeat("b", max) + `"}`
	if len(short) != max {
		t.Fatalf("short line is %d bytes", len(short))
	}

	r := NewReader(strings.NewReader(short+"\n"+long+"\n"+short+"\n"), max)
	if _, err := r.Read(); err != nil {
		t.Fatalf("line of exactly max bytes: %v", err)
	}
	if _, err := r.Read(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("over-long line: err = %v, want ErrLineTooLong", err)
	}
	if _, err := r.Read(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("after an over-long line: err = %v, want ErrLineTooLong again", err)
	}

	// An endless line with no newline is an error, not a hang.
	r = NewReader(io.MultiReader(strings.NewReader(`{"id":1,"result":"`), endless{}), 1<<20)
	if _, err := r.Read(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("endless line: err = %v, want ErrLineTooLong", err)
	}

	// The writer refuses to send what the reader would refuse.
	var buf bytes.Buffer
	err := NewWriter(&buf, max).Write(&Message{ID: 2, Result: json.RawMessage(`"` + strings.Repeat("b", max) + `"`)})
	if !errors.Is(err, ErrLineTooLong) || buf.Len() != 0 {
		t.Fatalf("writer: err = %v, wrote %d bytes; want ErrLineTooLong and nothing", err, buf.Len())
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestMalformed(t *testing.T) {
	input := strings.Join([]string{
		`not json`,
		`[1,2]`,
		`{"id":1}`,
		`{"id":1,"result":{},"error":{"code":"x","message":"y"}}`,
		`{"v":"waymark.rpc/0","id":1,"method":"open"}`,
		`{"id":1,"method":"open"}`,
		`{"v":"waymark.rpc/1","method":"open"}`,
		``,
		`{"id":9,"result":{}}`,
		`{"id":10,"resu`,
	}, "\n")
	r := NewReader(strings.NewReader(input), 0)
	wantErrs := []error{ErrMalformed, ErrMalformed, ErrInvalid, ErrInvalid, ErrInvalid, ErrInvalid, ErrInvalid}
	for i, want := range wantErrs {
		if _, err := r.Read(); !errors.Is(err, want) {
			t.Errorf("line %d: err = %v, want %v", i+1, err, want)
		}
	}
	m, err := r.Read()
	if err != nil || m.ID != 9 {
		t.Fatalf("after malformed lines: %+v, %v; want the message with id 9", m, err)
	}
	if _, err := r.Read(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut line: err = %v, want io.ErrUnexpectedEOF", err)
	}
	var ve *VersionError
	_, err = NewReader(strings.NewReader(`{"v":"waymark.rpc/2","hello":{"binary":"x","pid":1}}`+"\n"), 0).Read()
	if !errors.As(err, &ve) || ve.Got != "waymark.rpc/2" {
		t.Errorf("hello of another protocol: err = %v, want *VersionError", err)
	}
}

func TestReadEOF(t *testing.T) {
	if _, err := NewReader(strings.NewReader(""), 0).Read(); err != io.EOF {
		t.Errorf("empty stream: err = %v, want io.EOF", err)
	}
}

func BenchmarkWriteLargeResult(b *testing.B) {
	payload, _ := json.Marshal(map[string]string{"data": strings.Repeat("QUJD", 5<<20)}) // 20 MB
	m := &Message{ID: 1, Result: payload}
	w := NewWriter(io.Discard, 0)
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if err := w.Write(m); err != nil {
			b.Fatal(err)
		}
	}
}

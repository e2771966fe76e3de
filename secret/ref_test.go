package secret

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRef(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Ref
		bad  bool
	}{
		{"env:PIN", Ref{Kind: RefEnv, Name: "PIN"}, false},
		{"env:_a1", Ref{Kind: RefEnv, Name: "_a1"}, false},
		{"file:/run/pw", Ref{Kind: RefFile, Name: "/run/pw"}, false},
		{"file:pw.txt", Ref{Kind: RefFile, Name: "pw.txt"}, false},
		{"prompt", Ref{Kind: RefPrompt}, false},
		{"env:", Ref{}, true},
		{"env:1A", Ref{}, true},
		{"env:A-B", Ref{}, true},
		{"file:", Ref{}, true},
		{"hunter2", Ref{}, true},
		{"Prompt", Ref{}, true},
	} {
		got, err := ParseRef(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseRef(%q) = %+v, %v", c.in, got, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrBadRef) {
				t.Errorf("ParseRef(%q): %v is not ErrBadRef", c.in, err)
			}
			if c.in == "hunter2" && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error echoes what may be the secret: %v", err)
			}
			continue
		}
		if got.String() != c.in {
			t.Errorf("%q reads back as %q", c.in, got.String())
		}
	}
}

func TestRefResolve(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("s3cret-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := Sources{
		Getenv:   func(k string) string { return map[string]string{"PIN": "4821"}[k] },
		ReadFile: os.ReadFile,
		Prompt:   func(name string) (string, error) { return "typed-" + name, nil },
	}
	for _, c := range []struct {
		ref, want string
		unset     bool
	}{
		{"env:PIN", "4821", false},
		{"env:NOPE", "", true},
		{"file:" + pw, "s3cret-file", false},
		{"file:" + empty, "", true},
		{"file:" + filepath.Join(dir, "none"), "", true},
		{"prompt", "typed-pin", false},
	} {
		r, err := ParseRef(c.ref)
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.Resolve(src, "pin")
		if c.unset {
			if !errors.Is(err, ErrUnset) {
				t.Errorf("%s: %v, want ErrUnset", c.ref, err)
			}
			continue
		}
		if err != nil || v.Reveal() != c.want || v.Name() != "pin" {
			t.Errorf("%s = %q (%s), %v", c.ref, v.Reveal(), v.Name(), err)
		}
	}
	// A source that is not here is unset, never the process's own.
	t.Setenv("WAYMARK_REF_TEST", "from-the-process")
	r, _ := ParseRef("env:WAYMARK_REF_TEST")
	if _, err := r.Resolve(Sources{}, "x"); !errors.Is(err, ErrUnset) {
		t.Errorf("no Getenv: %v", err)
	}
	r, _ = ParseRef("prompt")
	if _, err := r.Resolve(Local(), "x"); !errors.Is(err, ErrUnset) {
		t.Errorf("no prompt: %v", err)
	}
}

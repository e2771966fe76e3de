package routine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/secret"
)

func TestSaveRoundTrip(t *testing.T) {
	r, err := Load("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "r.json")
	if err := Save(p, r, nil); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v", fi.Mode())
	}
	// A 0600 file stays 0600.
	os.Chmod(p, 0o600)
	if err := Save(p, r, nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after resave = %v", fi.Mode())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSaveRefusesSecrets(t *testing.T) {
	base := func() *Routine {
		r, err := Load("testdata/every-kind.json")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	known := new(secret.Set)
	known.Add("password", "hunter2-correct-horse")
	tests := []struct {
		name      string
		edit      func(r *Routine)
		wantWhere string
		wantMsg   string
	}{
		{"credential literal", func(r *Routine) {
			r.Steps[3].Value = &Value{Literal: "sk-" + "proj-" + "Xq3vB9kLm2Tz8RwYp4Nc7Hd1Fg6Js5Ua0Ke"}
		},
			`steps[3] (id "country").value.literal`, "looks like a secret"},
		{"high entropy", func(r *Routine) { r.Steps[3].Value = &Value{Literal: "Zq8X3vT9mK2pLw7RbN4cYd6F"} },
			`steps[3] (id "country").value.literal`, "looks like a secret"},
		{"known secret", func(r *Routine) { r.Steps[3].Value = &Value{Literal: "hunter2-correct-horse"} },
			`steps[3] (id "country")`, `the secret "password"`},
		{"known secret nested", func(r *Routine) { r.Steps[5].Do[0].Value = &Value{Template: "%row.name% hunter2-correct-horse"} },
			`steps[5] (id "each").do[0]`, `the secret "password"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.json")
			r := base()
			tt.edit(r)
			err := Save(p, r, known)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a LoadError", err)
			}
			if le.Where != tt.wantWhere || !strings.Contains(le.Msg, tt.wantMsg) || le.File != p {
				t.Errorf("err = %+v", le)
			}
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a refused routine was written")
			}
		})
	}
}

// failingFS fails the write midway, as a crash or a full disk would.
type failingFS struct {
	osFS
	failAt string // write, sync, rename
}

type failingFile struct {
	*os.File
	failAt string
}

func (f failingFile) Write(b []byte) (int, error) {
	if f.failAt == "write" {
		n, _ := f.File.Write(b[:len(b)/2])
		return n, errors.New("disk full")
	}
	return f.File.Write(b)
}

func (f failingFile) Sync() error {
	if f.failAt == "sync" {
		return errors.New("i/o error")
	}
	return f.File.Sync()
}

func (fsys failingFS) CreateTemp(dir, pattern string) (tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return failingFile{f, fsys.failAt}, nil
}

func (fsys failingFS) Rename(from, to string) error {
	if fsys.failAt == "rename" {
		return errors.New("crossed devices")
	}
	return os.Rename(from, to)
}

func TestSaveAtomic(t *testing.T) {
	r, err := Load("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, failAt := range []string{"write", "sync", "rename"} {
		t.Run(failAt, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "r.json")
			if err := Save(p, r, nil); err != nil {
				t.Fatal(err)
			}
			old, _ := os.ReadFile(p)
			r2 := *r
			r2.Name = "changed"
			if err := save(p, &r2, nil, failingFS{failAt: failAt}); err == nil {
				t.Fatal("save succeeded")
			}
			now, _ := os.ReadFile(p)
			if string(now) != string(old) {
				t.Errorf("the old file changed")
			}
			if _, err := Load(p); err != nil {
				t.Errorf("old file no longer loads: %v", err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("files left: %v", entries)
			}
		})
	}
}

func TestPendingPath(t *testing.T) {
	if got := PendingPath("/a/checkout.json", 2); got != "/a/checkout.v2.pending.json" {
		t.Errorf("got %q", got)
	}
}

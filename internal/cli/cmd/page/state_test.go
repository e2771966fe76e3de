package page

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestStateSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "auth.json")
	// An older, world-readable file is replaced, not rewritten in place.
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := calls.State{Cookies: []calls.Cookie{{Name: "sid", Value: "s3cret", Domain: "a.test"}}, Origins: map[string]map[string]string{"https://a.test": {"k": "v"}}}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodStateSave: st}}
	c, _, errOut := clitest.NewCommon(fc, false, false)
	if err := stateSaveRun(context.Background(), &StateOptions{Common: c, Op: "save", Path: path}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the folder: %v", entries)
	}
	var got calls.State
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	st.Format = calls.StateFormat // filled in when the daemon left it out
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	if want := "saved 1 cookie(s) and the storage of 1 origin(s) to " + path + "\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}

	// A folder that does not exist: nothing written, a clear error.
	err = stateSaveRun(context.Background(), &StateOptions{Common: c, Path: filepath.Join(dir, "no", "auth.json")})
	if !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestWriteFileAtomicKeepsOldOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Renaming over a directory fails after the temp file was written;
	// the temp file must go and the target must stay as it was.
	target := filepath.Join(dir, "adir")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmdutil.WriteFileAtomic(target, []byte("new"), 0o600); err == nil {
		t.Fatal("rename over a non-empty directory: no error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("old file changed: %q", b)
	}
}

func TestStateLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"format":"waymark.state/1","cookies":[{"name":"sid","value":"x","domain":"a.test"}],"origins":{"https://a.test":{"k":"v"}}}`)
	tests := []struct {
		name    string
		path    string
		wantErr string
	}{
		{name: "good", path: good},
		{name: "other version", path: write("v2.json", `{"format":"waymark.state/2","cookies":[]}`),
			wantErr: dir + `/v2.json has format "waymark.state/2", not "waymark.state/1"`},
		{name: "other kind", path: write("routine.json", `{"format":"waymark.routine/1","steps":[]}`),
			wantErr: dir + `/routine.json has format "waymark.routine/1", not "waymark.state/1"`},
		{name: "no format", path: write("plain.json", `{"cookies":[]}`),
			wantErr: dir + `/plain.json is not a waymark state file: it has no "format" field`},
		{name: "not json", path: write("x.txt", `hello`),
			wantErr: dir + `/x.txt is not a waymark state file: invalid character 'h' looking for beginning of value`},
		{name: "missing", path: filepath.Join(dir, "nope.json"), wantErr: "no state file " + dir + "/nope.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{}
			c, _, _ := clitest.NewCommon(fc, false, false)
			err := stateLoadRun(context.Background(), &StateOptions{Common: c, Op: "load", Path: tt.path})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if !errors.Is(err, calls.ErrBadInput) || cmdutil.ErrorHint(err) == "" {
					t.Errorf("err %v: not bad input with a hint", err)
				}
				if len(fc.Calls) != 0 {
					t.Errorf("called the daemon: %v", fc.Methods())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []clitest.FakeCall{{Session: "s1", Method: calls.MethodStateLoad, Params: calls.State{
				Format:  calls.StateFormat,
				Cookies: []calls.Cookie{{Name: "sid", Value: "x", Domain: "a.test"}},
				Origins: map[string]map[string]string{"https://a.test": {"k": "v"}},
			}}}
			if diff := cmp.Diff(want, fc.Calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

package routine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// Save writes a routine to path atomically: to a temporary file in the same
// folder, synced, then renamed over path, so a crash mid-write leaves the
// old file (or none), never a broken one. The file gets mode 0644, or keeps
// 0600 when it exists with that mode. Save refuses a routine that does not
// validate, and any value that looks like a credential or a random token
// or holds a value of known (nil: none), naming the step.
func Save(path string, r *Routine, known *secret.Set) error {
	return save(path, r, known, osFS{})
}

// Marshal checks a routine as Save does and returns its JSON.
func Marshal(r *Routine, known *secret.Set) ([]byte, error) {
	if r.Format == "" {
		r.Format = Format
	}
	if err := Validate(r); err != nil {
		return nil, err
	}
	if known != nil {
		if err := knownSecrets(r, known); err != nil {
			return nil, err
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	// What goes to disk must load back: the schema is the last word.
	if _, err := Parse(b); err != nil {
		return nil, err
	}
	return b, nil
}

// knownSecrets refuses a routine any of whose steps holds a known secret
// value, in any field.
func knownSecrets(r *Routine, known *secret.Set) error {
	var walk func(steps []Step, where string) error
	walk = func(steps []Step, where string) error {
		for i := range steps {
			s := steps[i]
			w := at(fmt.Sprintf("%s[%d]", where, i), &s)
			kids := [][]Step{s.Then, s.Else, s.Do}
			s.Then, s.Else, s.Do = nil, nil, nil
			b, _ := json.Marshal(s)
			if name, ok := known.Contains(string(b)); ok {
				return &LoadError{Where: w, Msg: fmt.Sprintf("the step holds the value of the secret %q", name),
					Hint: "refer to the secret with {\"from\": \"secret\", \"slot\": NAME} instead of its value"}
			}
			for j, k := range kids {
				if err := walk(k, w+"."+[]string{"then", "else", "do"}[j]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(r.Steps, "steps"); err != nil {
		return err
	}
	head := *r
	head.Steps = nil
	b, _ := json.Marshal(head)
	if name, ok := known.Contains(string(b)); ok {
		return &LoadError{Msg: fmt.Sprintf("the routine holds the value of the secret %q", name)}
	}
	return nil
}

// fileSystem is what an atomic write needs; tests swap it to fail midway.
type fileSystem interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	Rename(from, to string) error
	Remove(name string) error
	Stat(name string) (fs.FileInfo, error)
}

type tempFile interface {
	io.Writer
	Name() string
	Sync() error
	Chmod(fs.FileMode) error
	Close() error
}

type osFS struct{}

func (osFS) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) Rename(from, to string) error                     { return os.Rename(from, to) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)            { return os.Stat(name) }

func save(path string, r *Routine, known *secret.Set, fsys fileSystem) (err error) {
	b, err := Marshal(r, known)
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) {
			le.File = path
		}
		return err
	}
	return writeAtomic(fsys, path, b)
}

// writeAtomic writes b to path through a temporary file beside it.
func writeAtomic(fsys fileSystem, path string, b []byte) (err error) {
	mode := fs.FileMode(0o644)
	if fi, err := fsys.Stat(path); err == nil && fi.Mode().Perm() == 0o600 {
		mode = 0o600
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := fsys.CreateTemp(dir, "."+strings.TrimSuffix(base, ".json")+".*.tmp")
	if err != nil {
		return &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("write %s: %v", path, err), Hint: "check that the folder exists and is writable"}
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = fsys.Remove(tmp)
		}
	}()
	if _, err = f.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = fsys.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// PendingPath is where a healed version waiting for review goes, beside
// the routine: checkout.json → checkout.v2.pending.json.
func PendingPath(path string, version int) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s.v%d.pending%s", strings.TrimSuffix(path, ext), version, ext)
}

// CheckSavable reports whether [Save] could write a routine at path,
// without writing one: the folder exists and takes a new file, and path is
// not a folder. A command that saves at the end of a long task (run
// --record, record stop) checks first, so a bad path fails before the task
// rather than after it. The error is bad_input; hint is added to its own.
func CheckSavable(path, hint string) error {
	bad := func(format string, args ...any) error {
		return calls.Errorf(calls.ErrBadInput, strings.TrimPrefix(hint+"; give another path", "; "), format, args...)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return bad("cannot write %s: %v", path, err)
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return bad("cannot write %s: the folder %s does not exist", path, dir)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return bad("cannot write %s: it is a folder; give a file name, such as checkout.json", path)
		}
		return bad("cannot write %s: it is not a regular file", path)
	}
	f, err := os.CreateTemp(dir, "."+strings.TrimSuffix(filepath.Base(abs), ".json")+".*.check")
	if err != nil {
		return bad("cannot write %s: %v", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

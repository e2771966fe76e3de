// Package approval is waymark's one approval authority: the single place
// that decides whether the approvals a routine records (routine.Approved,
// a submit a person pressed while recording by hand) are a person's, so
// that a replay may press those submits without asking.
//
// An approval is bound to the routine file a person saved, byte for byte:
// the authority keeps a digest of the file in waymark's state folder when
// a person saves a recording by hand (`waymark record stop`) or approves
// the file on a terminal (`waymark routine approve FILE`). Nothing else
// feeds it: no MCP tool, no daemon call. Every runner asks it before it
// trusts a recorded approval: the CLI's replay, MCP replay, a Go program
// (replay.Options.Approvals) and a batch (the submitting person's CLI
// checks the file; a worker takes its word, see [Relayed]). A routine that
// came from anywhere else (an MCP client's JSON, a program's own), or a
// file changed by a single byte since the person saved it, carries no
// approval: its submits are put to the person, or stop as needs-approval.
//
// What this does not stop: a program running as the same user with a
// shell can write the state folder, or run `waymark routine approve` on a
// terminal it made. The authority keeps an MCP client (which has only
// waymark's tools) and a changed file from approving a submit.
package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
	"github.com/waymark-dev/waymark/routine"
)

// Authority keeps and checks the approvals people gave, in one folder.
type Authority struct {
	dir string
}

// New is the authority whose records live in dir (a test's folder; the
// user's is [Default]).
func New(dir string) *Authority { return &Authority{dir: dir} }

// Default is the user's authority: the approvals folder of waymark's
// state folder ($XDG_STATE_HOME/waymark/approvals,
// ~/.local/state/waymark/approvals). getenv nil means os.Getenv.
func Default(getenv func(string) string) *Authority {
	if getenv == nil {
		getenv = os.Getenv
	}
	return New(filepath.Join(daemonpath.StateDir(getenv), "approvals"))
}

// record is what the authority keeps of a file a person approved.
type record struct {
	File   string    `json:"file"`   // the file's absolute path, symlinks resolved
	Digest string    `json:"digest"` // sha256 of the file's bytes
	By     string    `json:"by"`     // the person's act: "record stop", "routine approve"
	At     time.Time `json:"at"`
	// Steps are the digests of the top-level steps and Variables of the
	// variables, to say what changed since.
	Steps     []string `json:"steps"`
	IDs       []string `json:"ids"`
	Variables string   `json:"variables"`
}

// Grant records that a person approved the routine file at path as it is
// now: its recorded approvals are theirs until a byte of it changes. by
// names the person's act ("record stop", "routine approve"). Only a
// command a person runs calls it.
func (a *Authority) Grant(path, by string) error {
	file, err := canonical(path)
	if err != nil {
		return err
	}
	r, raw, err := routine.LoadRaw(file)
	if err != nil {
		return err
	}
	rec := record{File: file, Digest: digest(raw), By: by, At: time.Now().UTC().Round(time.Second), Variables: digestJSON(r.Variables)}
	for _, s := range r.Steps {
		rec.Steps = append(rec.Steps, digestJSON(s))
		rec.IDs = append(rec.IDs, s.ID)
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return fmt.Errorf("keep the approval: %w", err)
	}
	tmp, err := os.CreateTemp(a.dir, ".approval-*")
	if err != nil {
		return fmt.Errorf("keep the approval: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("keep the approval: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("keep the approval: %w", err)
	}
	if err := os.Rename(tmp.Name(), a.recordPath(file)); err != nil {
		return fmt.Errorf("keep the approval: %w", err)
	}
	return nil
}

// Check says whether the approvals recorded in raw, the bytes of the
// routine file at path, are a person's: the file is one a person saved
// or approved, and not a byte of it changed since.
func (a *Authority) Check(path string, raw []byte) *Trust {
	r, err := routine.Parse(raw)
	if err != nil {
		return &Trust{why: "it does not load"}
	}
	t := &Trust{canon: canonOf(r), file: path}
	if len(RecordedIn(r)) == 0 {
		t.ok = true // nothing to trust
		return t
	}
	file, err := canonical(path)
	if err != nil {
		t.why = fmt.Sprintf("%s cannot be found again (%v)", path, err)
		return t
	}
	b, err := os.ReadFile(a.recordPath(file))
	var rec record
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.why = "no person saved or approved " + path + " (it was not written by `waymark record stop`, or was moved or copied since)"
	case err != nil:
		t.why = fmt.Sprintf("the approval kept for %s does not read (%v)", path, err)
	case rec.File != file:
		t.why = "no person saved or approved " + path
	case rec.Digest != digest(raw):
		t.why = path + " changed after it was saved: " + changed(&rec, r)
	default:
		t.ok = true
	}
	return t
}

// Load reads the routine file at path and the authority's word on its
// recorded approvals.
func (a *Authority) Load(path string) (*routine.Routine, *Trust, error) {
	r, raw, err := routine.LoadRaw(path)
	if err != nil {
		return nil, nil, err
	}
	return r, a.Check(path, raw), nil
}

// recordPath is where the record of file lives: named by a digest of the
// file's path.
func (a *Authority) recordPath(file string) string {
	return filepath.Join(a.dir, digest([]byte(file))[:32]+".json")
}

// changed says what differs between the file a person approved and r.
func changed(rec *record, r *routine.Routine) string {
	var what []string
	if len(rec.Steps) != len(r.Steps) {
		what = append(what, fmt.Sprintf("it has %d steps, not %d", len(r.Steps), len(rec.Steps)))
	} else {
		for i, s := range r.Steps {
			if digestJSON(s) != rec.Steps[i] {
				name := fmt.Sprintf("steps[%d]", i)
				if s.ID != "" {
					name = fmt.Sprintf("step %s (steps[%d])", s.ID, i)
				}
				what = append(what, name+" changed")
			}
		}
	}
	if digestJSON(r.Variables) != rec.Variables {
		what = append(what, "its variables changed")
	}
	if len(what) == 0 {
		return "outside its steps and variables (its name, task or history)"
	}
	var b bytes.Buffer
	for i, w := range what {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w)
	}
	return b.String()
}

// Recorded is one approval a routine records: the step's id and place,
// and what the person approved.
type Recorded struct {
	ID       string
	Path     string // steps[2], steps[1].do[0]
	Approved *routine.Approved
}

// Describe says in one line which step the approval is of and what the
// person approved ([routine.Approved.Describe]), for the list a person
// approves a file by.
func (r Recorded) Describe() string {
	name := r.Path
	if r.ID != "" {
		name = r.ID + " (" + r.Path + ")"
	}
	return name + ": " + r.Approved.Describe()
}

// RecordedIn lists the approvals r records, in its steps' order (inside
// branches and loops too): what a person approves with the file.
func RecordedIn(r *routine.Routine) []Recorded {
	var out []Recorded
	var walk func(steps []routine.Step, where string)
	walk = func(steps []routine.Step, where string) {
		for i := range steps {
			s := &steps[i]
			here := fmt.Sprintf("%s[%d]", where, i)
			if s.Approved != nil {
				out = append(out, Recorded{ID: s.ID, Path: here, Approved: s.Approved})
			}
			walk(s.Then, here+".then")
			walk(s.Else, here+".else")
			walk(s.Do, here+".do")
			walk(s.Fallback, here+".fallback")
		}
	}
	walk(r.Steps, "steps")
	return out
}

// canonical is path made absolute with its symlinks resolved: the one
// name of the file.
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func digestJSON(v any) string {
	b, _ := json.Marshal(v)
	return digest(b)
}

// Package memory is a file store for the pilot's notes about sites
// ([pilot.Memory]): one Markdown file per host in a folder, a lesson a
// line, oldest first. It is what `[memory] dir` in waymark.toml turns on
// for the CLI and the MCP server; a program may keep notes anywhere else
// by implementing pilot.Memory itself.
//
// A note is waymark's own words about a site's controls (what a button is
// called now), written by the pilot, which never lets a typed value or a
// secret into one. The files are the person's to read and edit; a note
// reaches a model fenced as untrusted notes.
package memory

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gofrs/flock"

	"github.com/waymark-dev/waymark/pilot"
)

// Dir keeps notes in the folder Path, made on first use (0700, files
// 0600: the notes name what a person's sites call their controls).
type Dir struct {
	Path string
	// Max bounds the lessons kept per host; older ones are dropped. Zero
	// means 50.
	Max int
	// HintCount is how many of the latest lessons Hints returns; zero
	// means 20.
	HintCount int
}

var _ pilot.Memory = Dir{}

// ErrBadHost is returned for a host that is no host name.
var ErrBadHost = errors.New("not a host name")

var hostRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// file is the host's notes file.
func (d Dir) file(host string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(host))
	if d.Path == "" {
		return "", errors.New("memory: no folder given")
	}
	if len(h) > 253 || !hostRE.MatchString(h) {
		return "", fmt.Errorf("memory: %q: %w (give one such as shop.example)", host, ErrBadHost)
	}
	return filepath.Join(d.Path, h+".md"), nil
}

// Hints returns the latest lessons on host, oldest first.
func (d Dir) Hints(_ context.Context, host string) ([]string, error) {
	f, err := d.file(host)
	if err != nil {
		return nil, err
	}
	lessons, err := read(f)
	n := d.HintCount
	if n <= 0 {
		n = 20
	}
	if len(lessons) > n {
		lessons = lessons[len(lessons)-n:]
	}
	return lessons, err
}

// Learn keeps lesson on host, once: a lesson kept already moves to the
// end (it is the latest again).
func (d Dir) Learn(_ context.Context, host, lesson string) error {
	f, err := d.file(host)
	if err != nil {
		return err
	}
	lesson = strings.Join(strings.Fields(lesson), " ")
	if lesson == "" {
		return nil
	}
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	lock := flock.New(f + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	defer lock.Unlock()
	lessons, err := read(f)
	if err != nil {
		return err
	}
	kept := lessons[:0]
	for _, l := range lessons {
		if l != lesson {
			kept = append(kept, l)
		}
	}
	kept = append(kept, lesson)
	max := d.Max
	if max <= 0 {
		max = 50
	}
	if len(kept) > max {
		kept = kept[len(kept)-max:]
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Notes on %s\n\nKept by waymark from earlier runs (`waymark memory forget %s` removes them).\n\n", strings.ToLower(host), strings.ToLower(host))
	for _, l := range kept {
		b.WriteString("- " + l + "\n")
	}
	tmp := f + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return os.Rename(tmp, f)
}

// Show returns host's notes file as it is, or "" when there is none.
func (d Dir) Show(host string) (string, error) {
	f, err := d.file(host)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(f)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return string(b), err
}

// Forget removes host's notes; it reports whether there were any.
func (d Dir) Forget(host string) (bool, error) {
	f, err := d.file(host)
	if err != nil {
		return false, err
	}
	os.Remove(f + ".lock")
	err = os.Remove(f)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// read returns the lessons of a notes file: its "- " lines, which a
// person may have edited; none when there is no file.
func read(f string) ([]string, error) {
	b, err := os.ReadFile(f)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "- "); ok && strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out, sc.Err()
}

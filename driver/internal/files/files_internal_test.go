package files

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

func TestSafeName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "report.csv", "report.csv"},
		{"unix path", "../../etc/evil.csv", "evil.csv"},
		{"windows path", `..\..\evil.csv`, "evil.csv"},
		{"dot dot", "..", "download"},
		{"hidden", ".bashrc", "bashrc"},
		{"empty", "", "download"},
		{"control characters", "a\x00b\nc\x7f.txt", "abc.txt"},
		{"bidi override", "invoice\u202Efdp.exe", "invoicefdp.exe"},
		{"windows reserved characters", `a<b>:c|d?*.csv`, "a_b__c_d__.csv"},
		{"trailing dots and spaces", " name.csv. . ", "name.csv"},
		{"long", strings.Repeat("é", 300) + ".pdf", strings.Repeat("é", 98) + ".pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safeName(tt.in); got != tt.want {
				t.Errorf("safeName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAllowedExtension(t *testing.T) {
	d := &Downloads{exts: []string{".csv", ".tar.gz"}}
	for name, want := range map[string]bool{
		"a.csv": true, "A.CSV": true, "x.tar.gz": true, "x.gz": false,
		"a.exe": false, "csv": false, ".csv": false, "a.csv.exe": false,
	} {
		if got := d.allowed(name); got != want {
			t.Errorf("allowed(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPlaceFile(t *testing.T) {
	dir := t.TempDir()
	put := func(guid, name string) string {
		t.Helper()
		src := filepath.Join(dir, guid)
		if err := os.WriteFile(src, []byte(guid), 0o600); err != nil {
			t.Fatal(err)
		}
		dst, err := placeFile(src, dir, name)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(dst) != dir {
			t.Fatalf("%s left the folder: %s", name, dst)
		}
		if _, err := os.Stat(src); !os.IsNotExist(err) {
			t.Fatalf("the GUID file %s is still there", src)
		}
		return filepath.Base(dst)
	}
	for i, want := range []string{"a.csv", "a (2).csv", "a (3).csv"} {
		if got := put("g"+string(rune('0'+i)), "a.csv"); got != want {
			t.Errorf("copy %d: %q, want %q", i+1, got, want)
		}
	}
	if got := put("g9", "../../x.csv"); got != "x.csv" {
		t.Errorf("../../x.csv placed as %q", got)
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		p, root string
		want    bool
	}{
		{"/home/u/a.txt", "/home/u", true},
		{"/home/u", "/home/u", true},
		{"/home/user2/a.txt", "/home/u", false},
		{"/home/a.txt", "/home/u", false},
		{"/home/u/..x/a", "/home/u", true},
		{"/etc/passwd", "/", true},
	} {
		if got := within(tt.p, tt.root); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.p, tt.root, got, tt.want)
		}
	}
}

func TestUploadRootsDefault(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	roots := uploadRoots(nil)
	realHome, _ := filepath.EvalSymlinks(home)
	realTmp, _ := filepath.EvalSymlinks(os.TempDir())
	if len(roots) != 2 || roots[0] != realTmp || roots[1] != realHome {
		t.Fatalf("default roots %q, want %q and %q", roots, realTmp, realHome)
	}
}

// A stopped download's file can appear after the stop: the browser
// renames one that completed as the cancel landed, and deletes a canceled
// one's on its own thread later. The sweep removes it for a while after,
// and the close of a shared folder once more; a kept file stays.
func TestStoppedDownloadLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	d := &Downloads{dir: dir, byGUID: map[string]*download{}, changed: make(chan struct{})}
	stopped := &download{guid: "5a1e-guid", name: "setup.exe"}
	kept := &download{guid: "k33p-guid", name: "report.csv", state: "completed"}
	d.list = []*download{stopped, kept}
	write := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	left := func() []string {
		t.Helper()
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}

	d.discard(stopped)
	write(stopped.guid) // renamed into place after the stop
	write(stopped.guid + ".crdownload")
	write("report.csv")
	d.sweep(time.Now())
	if got := left(); len(got) != 1 || got[0] != "report.csv" {
		t.Fatalf("after a tick the folder holds %q", got)
	}

	write(stopped.guid) // past sweepFor: only the close removes it
	d.sweep(time.Now().Add(2 * sweepFor))
	if got := left(); len(got) != 2 {
		t.Fatalf("past the sweep the folder holds %q", got)
	}
	d.sweep(time.Time{})
	if got := left(); len(got) != 1 || got[0] != "report.csv" {
		t.Fatalf("after close's sweep the folder holds %q", got)
	}
}

// A relative path to upload means one folder: the one the request names
// (the caller's), else this process's for a driver in the caller's own
// process; a daemon's driver (NoFolder) refuses it rather than read it
// from the folder the daemon started in, and its hint never names that.
func TestUploadsResolve(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	caller := t.TempDir()
	for _, tt := range []struct {
		name      string
		u         Uploads
		path, dir string
		want      string // "" when refused
	}{
		{"whole", Uploads{NoFolder: true}, "/tmp/x/../cv.pdf", "", "/tmp/cv.pdf"},
		{"whole ignores dir", Uploads{NoFolder: true}, "/tmp/cv.pdf", caller, "/tmp/cv.pdf"},
		{"relative to the caller's folder", Uploads{NoFolder: true}, "docs/cv.pdf", caller, filepath.Join(caller, "docs/cv.pdf")},
		{"in process: the process's folder", Uploads{}, "cv.pdf", "", filepath.Join(cwd, "cv.pdf")},
		{"daemon: refused", Uploads{NoFolder: true}, "cv.pdf", "", ""},
		{"a relative folder is no folder", Uploads{}, "cv.pdf", "here", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.u.Resolve(tt.path, tt.dir)
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Fatalf("Resolve(%q, %q) = %q, %v; want %q", tt.path, tt.dir, got, err, tt.want)
				}
				return
			}
			if !errors.Is(err, calls.ErrBadInput) {
				t.Fatalf("Resolve(%q, %q) = %q, %v; want bad_input", tt.path, tt.dir, got, err)
			}
			if hint := calls.Hint(err); tt.u.NoFolder && (!strings.Contains(hint, "give the whole path") || strings.Contains(hint, cwd)) {
				t.Errorf("hint %q: want what to give, never this process's folder %s", hint, cwd)
			}
		})
	}
}

// TestUploadWithoutFilesNamesNoCommand: an upload with no file is refused
// in words every front reads; the CLI asks for a file itself, so its usage
// line would reach only the fronts it does not fit (MCP, a program).
func TestUploadWithoutFilesNamesNoCommand(t *testing.T) {
	_, err := Uploads{}.Check(nil, "")
	if !errors.Is(err, calls.ErrBadInput) || strings.Contains(calls.Hint(err), "waymark") || calls.Hint(err) == "" {
		t.Errorf("%v; hint %q", err, calls.Hint(err))
	}
}

// TestUploadsCheckHostileFolder: whatever folder a request names for its
// relative paths (a client's, a routine's), the upload roots bound the
// file read: a path climbing out with "..", a folder outside the roots,
// a link inside a root to a file outside, a folder that is itself a link
// out, are refused; the same file named from inside is read.
func TestUploadsCheckHostileFolder(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	mustWrite := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(filepath.Join(root, "cv.txt"))
	mustWrite(filepath.Join(outside, "secret.txt"))
	if err := os.MkdirAll(filepath.Join(root, "routines", "deep"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	u := Uploads{Roots: []string{root}, NoFolder: true}
	rel, err := filepath.Rel(filepath.Join(root, "routines", "deep"), filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, dir string
		ok        bool
	}{
		{"../../cv.txt", filepath.Join(root, "routines", "deep"), true},
		{rel, filepath.Join(root, "routines", "deep"), false},
		{"../../../../../../../../etc/passwd", filepath.Join(root, "routines"), false},
		{"secret.txt", outside, false},
		{"link.txt", root, false},
		{"secret.txt", filepath.Join(root, "out"), false},
		{"cv.txt", "routines/../..", false},
	} {
		got, err := u.Check([]string{tt.path}, tt.dir)
		if tt.ok != (err == nil) {
			t.Errorf("Check(%q, %q) = %v, %v; want ok %v", tt.path, tt.dir, got, err, tt.ok)
		}
		if err != nil && !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("Check(%q, %q): %v, want bad_input", tt.path, tt.dir, err)
		}
	}
}

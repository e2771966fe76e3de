package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/waymark-dev/waymark/calls"
)

// WriteFileAtomic writes a temporary file beside path and renames it over
// path, so a reader never sees half a file and a crash leaves the old one.
// The temporary file is created 0600 from the start, so the credentials in
// it are never readable by others, even for a moment.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "check that the folder exists and is writable", "write %s: %v", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteJSONLine writes v as one line of JSON, as eventPrinter does.
func WriteJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// ReadFileOrStdin reads the file name, or stdin when name is "-": form
// fill and sheet fill take their JSON either way, so that a script can
// pipe answers in without leaving a file of them on disk.
func ReadFileOrStdin(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

// FileDirs are the folders relative file paths are read from when a
// command reads file, a routine or answers: dir, the file's own folder,
// for the paths written in it (as relogin paths are); wd, the working
// folder, for the values typed on the command line (--var), which the
// shell completed from there. Either is "" when it cannot be told. The
// daemon reads no folder of its own (driver.Options.RemoteCallers): the
// requests carry these.
func FileDirs(file string) (dir, wd string) {
	wd, _ = os.Getwd()
	if abs, err := filepath.Abs(file); err == nil {
		dir = filepath.Dir(abs)
	}
	return dir, wd
}

package capture

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes a capture or HAR to path, readable by its owner only
// (0600, even for a moment: it is redacted, but it is a person's
// browsing), through a temporary file renamed over path so that a reader
// never sees half of it.
func WriteFile(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Parse reads a capture file's JSON; a document of another format is an
// error that names it.
func Parse(data []byte) (*File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a capture file: %w", err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("not a capture file: format %q, want %q", f.Format, Format)
	}
	return &f, nil
}

// ReadFile reads the capture file at path.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// safeName turns a suggested file name into one that stays inside the
// folder and shows what it is: the last path element only, no control or
// bidirectional-override characters (which can disguise "evil‮fdp.exe"),
// none of the characters Windows forbids, no leading or trailing dots or
// spaces (so no "..", no hidden file), at most 200 bytes.
func safeName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
		case r == utf8.RuneError, strings.ContainsRune(`<>:"|?*`, r):
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	s = strings.Trim(b.String(), " .")
	if s == "" {
		return "download"
	}
	const maxLen = 200
	if len(s) > maxLen {
		ext := filepath.Ext(s)
		if len(ext) > 20 {
			ext = ""
		}
		stem := s[:len(s)-len(ext)]
		for len(stem)+len(ext) > maxLen {
			_, size := utf8.DecodeLastRuneInString(stem)
			stem = stem[:len(stem)-size]
		}
		s = strings.TrimRight(stem, " .") + ext
	}
	return s
}

// ending is the name's extension for a message, or "(none)".
func ending(name string) string {
	if e := filepath.Ext(name); e != "" {
		return strings.ToLower(e)
	}
	return "without an extension"
}

// placeFile moves src into dir under name, or "name (2).ext" and so on
// when that is taken; it never replaces a file, and never leaves dir.
func placeFile(src, dir, name string) (string, error) {
	name = safeName(name)
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i <= 1000; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		dst := filepath.Join(dir, n)
		if filepath.Dir(dst) != filepath.Clean(dir) {
			return "", fmt.Errorf("name %q leaves the folder", n)
		}
		// A hard link fails if dst exists, so two sessions sharing the
		// folder cannot overwrite each other's files.
		err := os.Link(src, dst)
		if err == nil {
			return dst, os.Remove(src)
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("the browser left no file: %w", err)
		}
		// No hard links on this file system: check, then rename.
		if _, serr := os.Lstat(dst); serr == nil {
			continue
		}
		if err := os.Rename(src, dst); err != nil {
			return "", err
		}
		return dst, nil
	}
	return "", fmt.Errorf("too many files named %q", name)
}

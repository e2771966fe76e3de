package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// profilePrefix starts the name of every browser profile folder a waymark
// process makes; the process's id follows, so that a later process can tell
// a profile whose owner died (SIGKILL leaves it behind) from one in use.
const profilePrefix = "waymark-profile-"

// NewProfile makes a fresh profile folder (mode 0700) in the system temp
// folder, named after this process, for a browser this process starts.
// Remove it with RemoveProfile once the browser has exited.
func NewProfile() (string, error) {
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", profilePrefix, os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("make the browser's profile folder: %w", err)
	}
	if err := writePrefs(dir); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("write the browser's profile: %w", err)
	}
	return dir, nil
}

// startPrefs are the profile's preferences before the browser first runs.
// Spell checking off: the first field typed into would fetch a dictionary
// (redirector.gvt1.com/edgedl/chrome/dict/), Chromium's own traffic that
// no switch turns off (seen with Chromium 148 in internal/adversarial's
// TestNoBackgroundTraffic); a page's fields do not need it.
const startPrefs = `{"browser":{"enable_spellchecking":false},"spellcheck":{"dictionaries":[],"use_spelling_service":false}}`

func writePrefs(dir string) error {
	def := filepath.Join(dir, "Default")
	if err := os.Mkdir(def, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(def, "Preferences"), []byte(startPrefs), 0o600)
}

// RemoveProfile removes a profile folder. A helper process of the browser
// can still write in it for a moment after the browser exits, so it tries
// again for a short while.
func RemoveProfile(dir string) error {
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := os.RemoveAll(dir)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// SweepProfiles removes the profile folders that waymark processes now dead
// left in the system temp folder (a daemon killed with SIGKILL cannot
// remove its own). A folder of a live process, of another user, or whose
// name does not say its process is left alone. It returns the folders
// removed.
func SweepProfiles() []string {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, profilePrefix) {
			continue
		}
		pidText, _, ok := strings.Cut(strings.TrimPrefix(name, profilePrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		dir := filepath.Join(tmp, name)
		if !ownedByMe(dir) || processAlive(pid) {
			continue
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

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
	return dir, nil
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

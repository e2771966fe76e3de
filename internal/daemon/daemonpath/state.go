package daemonpath

import (
	"os"
	"path/filepath"
	"strconv"
)

// StateDir is waymark's state folder: what must outlive a logout or a
// reboot but is no one's document (the approvals a person gave, a
// batch's memory). $XDG_STATE_HOME/waymark when set to an absolute path,
// else ~/.local/state/waymark, else (no home, as an MCP client may start
// waymark with) waymark-state-UID in the temporary folder.
func StateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "waymark")
	}
	if home := homeOf(getenv); home != "" {
		return filepath.Join(home, ".local", "state", "waymark")
	}
	return filepath.Join(os.TempDir(), "waymark-state-"+strconv.Itoa(os.Getuid()))
}

// RoutinesDir is the routines folder: where a person keeps the routine
// files waymark replays, the one folder besides the working folder whose
// files an MCP client may name. $XDG_DATA_HOME/waymark/routines when set
// to an absolute path, else ~/.local/share/waymark/routines; "" with no
// home.
func RoutinesDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "waymark", "routines")
	}
	if home := homeOf(getenv); home != "" {
		return filepath.Join(home, ".local", "share", "waymark", "routines")
	}
	return ""
}

// homeOf is $HOME when absolute, else the system's idea of it.
func homeOf(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		return h
	}
	return ""
}

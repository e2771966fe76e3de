package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// File names.
const (
	// ProjectFile is the project's config, in the working directory.
	ProjectFile = "waymark.toml"
	// UserFile is the user's config, under the user config dir.
	UserFile = "waymark/config.toml"
)

// LoadOptions say where [Load] looks. The zero value reads no file and no
// environment: only the defaults and Flags.
type LoadOptions struct {
	// Getenv reads the environment; nil means an empty one. The CLI passes
	// os.Getenv.
	Getenv func(string) string
	// Dir is the working directory, where waymark.toml is read; empty
	// means no project file.
	Dir string
	// UserDir is the user config dir (os.UserConfigDir), where
	// waymark/config.toml is read; empty means no user file.
	UserDir string
	// Flags are the flags set on the command line, applied last.
	Flags []Flag
}

// Flag is one command-line flag that sets a key.
type Flag struct {
	Name  string // as typed, such as "--cdp"; the value's source is "flag --cdp"
	Key   string // the key it sets, such as "browser.cdp"
	Value string // its text: "true", "30s"; a list takes one item a line
}

// env maps environment variables to the keys they set. The model's keys
// depend on the provider and are handled in applyEnv.
var env = []struct{ name, key string }{
	{"WAYMARK_BROWSER", "browser.executable"},
	{"WAYMARK_BROWSER_ARGS", "browser.args"},
	{"WAYMARK_CDP", "browser.cdp"},
	{"WAYMARK_SESSION", "session.name"},
	{"WAYMARK_PRIVATE_NETWORK", "policy.private_network"},
	{"WAYMARK_ALLOW_FILES", "policy.files"},
	{"WAYMARK_MODEL", "model.model"},
	{"WAYMARK_MEMORY_DIR", "memory.dir"},
}

// EnvNames are the environment variables Load reads: the thin front sends
// them with a command run in the daemon (rpc.FrontEnv), except the model's
// keys, which no command the daemon runs for it reads.
func EnvNames() []string {
	names := make([]string, 0, len(env)+3)
	for _, e := range env {
		names = append(names, e.name)
	}
	return append(names, "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL")
}

// Load merges the defaults, the user's file, the project's file, the
// environment and the flags, in that order. A missing file is skipped; an
// unreadable one, a syntax error, an unknown key ([UnknownKeyError]), a bad
// value ([ValueError]) or an api_key in a file others may read is an error
// that names the file and says what to do.
func Load(opts LoadOptions) (*Config, error) {
	c := Default()
	var paths []string
	if opts.UserDir != "" {
		paths = append(paths, filepath.Join(opts.UserDir, filepath.FromSlash(UserFile)))
	}
	if opts.Dir != "" {
		paths = append(paths, filepath.Join(opts.Dir, ProjectFile))
	}
	for _, p := range paths {
		read, err := c.applyFile(p)
		if err != nil {
			return nil, err
		}
		if read {
			c.files = append(c.files, p)
		}
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if err := c.applyEnv(getenv); err != nil {
		return nil, err
	}
	for _, f := range opts.Flags {
		k, ok := lookupKey(f.Key)
		if !ok {
			return nil, fmt.Errorf("flag %s sets unknown config key %q", f.Name, f.Key)
		}
		if err := k.parse(c, f.Value, "flag "+f.Name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// applyFile merges the file at path into c. It reports false for a file
// that does not exist.
func (c *Config) applyFile(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read config file %s: %w; fix its permissions or remove it", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("read config file %s: %w", path, err)
	}
	if fi.IsDir() {
		return false, fmt.Errorf("read config file %s: it is a folder; remove it or make it a TOML file", path)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return false, fmt.Errorf("read config file %s: %w; fix its permissions or remove it", path, err)
	}
	text := string(data)

	var fc Config
	md, err := toml.Decode(text, &fc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			if strings.HasPrefix(pe.Message, "invalid duration") {
				return false, fmt.Errorf("config file %s:%d: %s: %s; want a duration such as \"30s\" or \"2m\"", path, pe.Position.Line, pe.LastKey, pe.Message)
			}
			return false, fmt.Errorf("config file %s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return false, decodeError(path, err)
	}
	if err := unknownKeys(path, text, md.Undecoded()); err != nil {
		return false, err
	}
	for _, k := range keys {
		sec, leaf := splitKey(k.name)
		if !md.IsDefined(append(strings.Split(sec, "."), leaf)...) {
			continue
		}
		if k.name == "model.api_key" && fc.Model.APIKey != "" {
			if err := checkPrivateFile(path, fi.Mode()); err != nil {
				return false, err
			}
		}
		if err := k.check(&fc, path); err != nil {
			return false, err
		}
		k.copyTo(c, &fc)
		c.sources[k.name] = path
	}
	if md.IsDefined("apps") {
		for i, a := range fc.Apps {
			if err := a.Check(); err != nil {
				return false, fmt.Errorf("config file %s: [[apps]] number %d: %w", path, i+1, err)
			}
		}
		c.Apps = append(c.Apps, fc.Apps...)
		c.sources["apps"] = path
	}
	return true, nil
}

// typeErr matches toml's type errors, which are not ParseErrors:
// toml: line 2 (last key "browser.headless"): incompatible types: TOML value has type string; destination has type boolean
var typeErr = lazyre.New(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (?:incompatible types: TOML value has type (\w+); destination has type (\w+)|(.*))$`)

// decodeError rewrites an error of toml's decoding so that it starts with
// the file and line and says what the key wants.
func decodeError(path string, err error) error {
	m := typeErr.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	where := path
	if m[1] != "" {
		where += ":" + m[1]
	}
	if m[3] != "" {
		return fmt.Errorf("config file %s: %s wants a %s, not a %s", where, m[2], m[4], m[3])
	}
	return fmt.Errorf("config file %s: %s: %s", where, m[2], m[5])
}

// checkPrivateFile refuses a key in a file that others may read. Windows
// has no such modes; there the check is skipped.
func checkPrivateFile(path string, mode fs.FileMode) error {
	if runtime.GOOS == "windows" || mode.Perm()&0o077 == 0 {
		return nil
	}
	return fmt.Errorf("config file %s holds model.api_key but others may read it (mode %04o); run \"chmod 600 %s\", or remove the key and set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment",
		path, mode.Perm(), path)
}

// applyEnv merges the environment into c.
func (c *Config) applyEnv(getenv func(string) string) error {
	for _, e := range env {
		v := getenv(e.name)
		if v == "" {
			continue
		}
		k, _ := lookupKey(e.key)
		if err := k.parse(c, v, "env "+e.name); err != nil {
			return err
		}
	}
	anthropic, openai := getenv("ANTHROPIC_API_KEY"), getenv("OPENAI_API_KEY")
	if c.Model.Provider == "" {
		switch {
		case anthropic != "":
			c.Model.Provider, c.sources["model.provider"] = "anthropic", "env ANTHROPIC_API_KEY"
		case openai != "":
			c.Model.Provider, c.sources["model.provider"] = "openai", "env OPENAI_API_KEY"
		}
	}
	switch c.Model.Provider {
	case "anthropic":
		if anthropic != "" {
			c.Model.APIKey, c.sources["model.api_key"] = anthropic, "env ANTHROPIC_API_KEY"
		}
	case "openai":
		if openai != "" {
			c.Model.APIKey, c.sources["model.api_key"] = openai, "env OPENAI_API_KEY"
		}
		if u := getenv("OPENAI_BASE_URL"); u != "" {
			c.Model.BaseURL, c.sources["model.base_url"] = u, "env OPENAI_BASE_URL"
		}
	}
	return nil
}

// UnknownKeyError is a key in a config file that waymark does not know.
type UnknownKeyError struct {
	File    string
	Line    int      // 1-based; 0 when not found
	Key     string   // as dotted in the file: "browser.headles"
	Suggest string   // the closest known key, or ""
	Known   []string // the keys of its section, when the section is known
}

func (e *UnknownKeyError) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	msg := fmt.Sprintf("config file %s: unknown key %q", where, e.Key)
	switch {
	case e.Suggest != "":
		msg += fmt.Sprintf("; did you mean %q?", e.Suggest)
	case len(e.Known) > 0:
		sec, _ := splitKey(e.Key)
		msg += fmt.Sprintf("; [%s] knows %s", sec, strings.Join(e.Known, ", "))
	default:
		msg += fmt.Sprintf("; the sections are %s", strings.Join(sections(), ", "))
	}
	return msg
}

// unknownKeys turns the keys toml did not decode into errors, one per
// unknown key or table (not each key inside an unknown table).
func unknownKeys(path, text string, undecoded []toml.Key) error {
	var errs []error
	var reported []string
	for _, k := range undecoded {
		name := strings.Join(k, ".")
		if insideAny(reported, name) {
			continue
		}
		reported = append(reported, name)
		sec, _ := splitKey(name)
		errs = append(errs, &UnknownKeyError{
			File: path, Line: findLine(text, k), Key: name,
			Suggest: closest(name), Known: leavesOf(sec),
		})
	}
	return errors.Join(errs...)
}

// insideAny reports whether name is inside one of the tables named.
func insideAny(tables []string, name string) bool {
	for _, t := range tables {
		if strings.HasPrefix(name, t+".") {
			return true
		}
	}
	return false
}

// findLine returns the 1-based line that defines key in text, or 0. The
// toml package does not report key positions, so this reads table headers
// and "key =" lines itself; it misses keys inside inline tables.
func findLine(text string, key toml.Key) int {
	want := strings.Join(key, ".")
	table := ""
	for i, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			name, _, _ := strings.Cut(strings.TrimLeft(l, "["), "]")
			table = normalizeKey(name)
			if table == want {
				return i + 1
			}
			continue
		}
		name, _, ok := strings.Cut(l, "=")
		if !ok || strings.HasPrefix(l, "#") {
			continue
		}
		full := normalizeKey(name)
		if table != "" {
			full = table + "." + full
		}
		if full == want {
			return i + 1
		}
	}
	return 0
}

// normalizeKey turns ` a . "b" ` into "a.b".
func normalizeKey(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

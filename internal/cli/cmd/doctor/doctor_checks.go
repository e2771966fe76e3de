package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browser"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/policy"
)

// The checks of `waymark doctor`, one function each. A check never fails
// the run by returning an error: it reports fail with a fix.

const (
	minFreeDisk    = 500 << 20 // below this the disk check warns
	maxSocketPath  = 103       // as internal/daemon: sun_path less the NUL on the BSDs
	versionTimeout = 10 * time.Second
	renderTimeout  = 60 * time.Second
)

func checkConfig(o *DoctorOptions) (*config.Config, DoctorCheck) {
	c, err := o.LoadConfig()
	if err != nil {
		return config.Default(), DoctorCheck{Name: "config", Status: checkFail, Detail: err.Error(),
			Fix: "correct the file and line named, or move the file aside; the other checks use the defaults"}
	}
	if files := c.Files(); len(files) > 0 {
		return c, DoctorCheck{Name: "config", Status: checkOK, Detail: "parsed " + strings.Join(files, ", ")}
	}
	return c, DoctorCheck{Name: "config", Status: checkOK,
		Detail: "no config file (./" + config.ProjectFile + " or " + config.UserFile + " in the user config folder); using defaults"}
}

// checkCDP probes a configured endpoint the way the daemon will choose its
// engine. It also says whether a local Chromium is needed: not when the
// endpoint is the only engine allowed.
func checkCDP(ctx context.Context, o *DoctorOptions, c *config.Config) (DoctorCheck, bool) {
	ck := DoctorCheck{Name: "cdp", Status: checkSkip}
	endpoint, src := c.Browser.CDP, c.Sources()
	switch {
	case c.Browser.Engine == config.EngineChromium && endpoint != "":
		ck.Detail = fmt.Sprintf("engine = \"chromium\", so browser.cdp (%s) is not used", endpoint)
		return ck, true
	case endpoint == "" && c.Browser.Engine != config.EngineCDP:
		ck.Detail = "no CDP endpoint configured; a local Chromium is used"
		return ck, true
	}
	var probeErr error
	probe := func(ctx context.Context, ep string) error {
		probeErr = o.ProbeCDP(ctx, ep)
		return probeErr
	}
	_, err := config.ResolveEngine(ctx, c, probe)
	fix := fmt.Sprintf("start that browser with --remote-debugging-port=9222, or correct browser.cdp (set by %s)", src["browser.cdp"])
	switch {
	case err != nil:
		ck.Status, ck.Detail, ck.Fix = checkFail, err.Error(), fix+", or set cdp_to_local = true in [fallback]"
		if endpoint == "" {
			ck.Fix = "set browser.cdp, WAYMARK_CDP or --cdp, or set engine = \"auto\""
		}
		return ck, false
	case probeErr != nil:
		ck.Status, ck.Fix = checkWarn, fix
		ck.Detail = fmt.Sprintf("%s does not answer (%v); a local Chromium is used instead (cdp_to_local = true)", endpoint, probeErr)
		return ck, true
	}
	ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s answers", endpoint)
	return ck, c.Fallback.CDPToLocal
}

func checkBrowser(ctx context.Context, o *DoctorOptions, c *config.Config, needed bool) (string, DoctorCheck) {
	ck := DoctorCheck{Name: "browser"}
	path, err := o.FindBrowser(c.Browser.Executable)
	if err != nil {
		if !needed {
			ck.Status, ck.Detail = checkSkip, "no local Chromium, and none needed (the CDP endpoint is the only engine; cdp_to_local = false)"
			return "", ck
		}
		ck.Status, ck.Detail, ck.Fix = checkFail, err.Error(), installFix(c)
		var nf *browser.NotFoundError
		if errors.As(err, &nf) {
			ck.Detail = fmt.Sprintf("no Chromium or Chrome found (looked for %s)", strings.Join(nf.Looked, ", "))
		}
		return "", ck
	}
	vctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	v, err := o.BrowserVersion(vctx, path)
	if err != nil {
		ck.Status, ck.Detail = checkFail, fmt.Sprintf("%s does not run: %v", path, err)
		ck.Fix = "reinstall it, or point browser.executable (or WAYMARK_BROWSER) at another Chromium"
		return "", ck
	}
	ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s (%s)", path, v)
	return path, ck
}

// installFix says how to get a browser here.
func installFix(c *config.Config) string {
	if c.Browser.Executable != "" {
		return fmt.Sprintf("point browser.executable (set by %s) at an installed Chromium", c.Sources()["browser.executable"])
	}
	switch runtime.GOOS {
	case "darwin":
		return "brew install --cask chromium, or set browser.executable (or WAYMARK_BROWSER) to a Chrome you have"
	case "linux":
		return "apt-get install chromium (Debian, Ubuntu), or set browser.executable (or WAYMARK_BROWSER) to a Chrome you have"
	}
	return "install Chromium or Chrome, or set browser.executable (or WAYMARK_BROWSER) to its path"
}

func checkHeadless(ctx context.Context, o *DoctorOptions, c *config.Config, path string, needed bool) DoctorCheck {
	ck := DoctorCheck{Name: "headless"}
	if path == "" {
		ck.Status, ck.Detail = checkSkip, "no browser to start"
		if needed {
			ck.Status = checkFail
			ck.Fix = "fix the browser check first"
		}
		return ck
	}
	rctx, cancel := context.WithTimeout(ctx, renderTimeout)
	defer cancel()
	args := append(slices.Clone(c.Browser.Args), o.BrowserArgs...)
	detail, err := o.RenderPage(rctx, path, args)
	if err != nil {
		ck.Status, ck.Detail = checkFail, fmt.Sprintf("%s did not start headless and render a page: %v", path, err)
		ck.Fix = fmt.Sprintf("run %q to see the browser's own error (missing libraries, the sandbox); in a container add --browser-arg=--no-sandbox", path+" --headless=new --dump-dom about:blank")
		return ck
	}
	ck.Status, ck.Detail = checkOK, detail
	return ck
}

// browserVersion runs `path --version`.
func browserVersion(ctx context.Context, path string) (string, error) {
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.WaitDelay = time.Second // a child that keeps the pipe open must not hold us
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// doctorPage is the page the headless check renders.
const doctorPage = `<!doctype html><title>waymark doctor</title><h1>waymark doctor</h1><button>ok</button>`

// renderPage starts Chromium headless with driver.Launch, opens a page
// served on loopback, reads its outline and closes the browser (Close kills
// the process and removes its profile).
func renderPage(ctx context.Context, path string, args []string) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("serve the test page: %w", err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, doctorPage)
	})}
	go func() { _ = srv.Serve(ln) }() // ends when Close closes ln
	defer srv.Close()

	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: args})
	if err != nil {
		return "", err
	}
	defer b.Close()
	s, err := b.Session(ctx, "doctor")
	if err != nil {
		return "", err
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "http://" + ln.Addr().String() + "/"}); err != nil {
		return "", err
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		return "", err
	}
	if !strings.Contains(snap.Text, "waymark doctor") {
		return "", fmt.Errorf("the test page rendered without its heading; the outline was %q", snap.Text)
	}
	return fmt.Sprintf("started headless and rendered a test page (%s)", cmdutil.Count(snap.Refs, "ref")), nil
}

func checkSocket(o *DoctorOptions) DoctorCheck {
	ck := DoctorCheck{Name: "socket", Status: checkFail}
	p, err := o.SocketPaths(o.Socket)
	if err != nil {
		ck.Detail, ck.Fix = err.Error(), "set XDG_RUNTIME_DIR, or WAYMARK_SOCKET to a path of your own"
		return ck
	}
	if len(p.Socket) > maxSocketPath {
		ck.Detail = fmt.Sprintf("%s is %d bytes, over the %d a Unix socket allows", p.Socket, len(p.Socket), maxSocketPath)
		ck.Fix = "set WAYMARK_SOCKET to a shorter path"
		return ck
	}
	dir := filepath.Dir(p.Socket)
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s (its folder is made, mode 0700, when the daemon first starts)", p.Socket)
		return ck
	}
	if err != nil {
		ck.Detail, ck.Fix = err.Error(), "check the permissions of "+filepath.Dir(dir)
		return ck
	}
	// Only the default folder must be private: a socket the user named may
	// sit in a shared folder such as /tmp (see daemon.Paths).
	if o.Socket == "" && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		ck.Detail = fmt.Sprintf("%s is mode %04o: other users may reach the daemon", dir, fi.Mode().Perm())
		ck.Fix = "chmod 700 " + dir
		return ck
	}
	if err := p.CheckOwner(); err != nil {
		ck.Detail, ck.Fix = err.Error(), fmt.Sprintf("remove %s, or set WAYMARK_SOCKET to a path of your own", dir)
		return ck
	}
	state := "no daemon socket yet"
	if _, err := os.Stat(p.Socket); err == nil {
		state = "a daemon socket is there"
	}
	ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s (folder mode %04o, yours; %s)", p.Socket, fi.Mode().Perm(), state)
	return ck
}

func checkDisk(o *DoctorOptions, c *config.Config) DoctorCheck {
	ck := DoctorCheck{Name: "disk", Status: checkWarn}
	p, err := filepath.Abs(pathOr(c.Evidence.Folder, "."))
	if err != nil {
		ck.Detail = err.Error()
		return ck
	}
	// The folder may not exist yet: measure the disk it will be made on.
	for {
		if _, err := os.Stat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	free, err := o.FreeSpace(p)
	if err != nil {
		ck.Detail = fmt.Sprintf("cannot measure the free space in %s: %v", p, err)
		return ck
	}
	if free < minFreeDisk {
		ck.Detail = fmt.Sprintf("only %s free in %s for evidence (screenshots, outlines)", formatBytes(free), p)
		ck.Fix = "free some space, or set folder in [evidence] to another disk"
		return ck
	}
	ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s free in %s", formatBytes(free), p)
	return ck
}

func formatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	default:
		return fmt.Sprintf("%d MB", n>>20)
	}
}

// providers holds what doctor needs to list a provider's models.
var providers = map[string]struct {
	env, base, path string
	auth            func(h http.Header, key string)
}{
	"anthropic": {"ANTHROPIC_API_KEY", "https://api.anthropic.com", "/v1/models?limit=1000", func(h http.Header, key string) {
		h.Set("x-api-key", key)
		h.Set("anthropic-version", "2023-06-01")
	}},
	"openai": {"OPENAI_API_KEY", "https://api.openai.com/v1", "/models", func(h http.Header, key string) {
		h.Set("Authorization", "Bearer "+key)
	}},
}

// checkModels lists the provider's models with the key (a GET that costs
// nothing) and looks for each configured model name in the list.
func checkModels(ctx context.Context, o *DoctorOptions, c *config.Config) []DoctorCheck {
	m := c.Model
	ck := DoctorCheck{Name: "model", Status: checkSkip}
	prov, known := providers[m.Provider]
	switch {
	case m.Provider == "":
		ck.Detail = "no model configured (set provider in [model], or ANTHROPIC_API_KEY or OPENAI_API_KEY)"
		return []DoctorCheck{ck}
	case !known:
		ck.Status, ck.Detail = checkOK, fmt.Sprintf("provider %q calls no API", m.Provider)
		return []DoctorCheck{ck}
	case !o.Models:
		ck.Detail = "skipped: pass --models to call " + m.Provider
		return []DoctorCheck{ck}
	case m.APIKey == "":
		ck.Status, ck.Detail, ck.Fix = checkFail, "no API key for "+m.Provider, "set "+prov.env+" in the environment"
		return []DoctorCheck{ck}
	}
	base := m.BaseURL
	if base == "" {
		base = prov.base
	}
	u := strings.TrimRight(base, "/") + prov.path
	ids, err := listModels(ctx, o.HTTPClient, u, func(h http.Header) { prov.auth(h, m.APIKey) })
	if err != nil {
		ck.Status, ck.Detail = checkFail, fmt.Sprintf("%s: %v", m.Provider, err)
		ck.Fix = fmt.Sprintf("check model.base_url (set by %s) and the network", c.Sources()["model.base_url"])
		var se *statusError
		if errors.As(err, &se) && (se.code == http.StatusUnauthorized || se.code == http.StatusForbidden) {
			ck.Fix = fmt.Sprintf("check the key (model.api_key, set by %s; or %s)", c.Sources()["model.api_key"], prov.env)
		}
		return []DoctorCheck{ck}
	}
	names := configuredModels(m)
	if len(names) == 0 {
		ck.Status, ck.Detail = checkOK, fmt.Sprintf("%s answers (%d models; none configured, so its default is used)", m.Provider, len(ids))
		return []DoctorCheck{ck}
	}
	var out []DoctorCheck
	for _, n := range names {
		mc := DoctorCheck{Name: "model " + n, Status: checkOK, Detail: "offered by " + m.Provider}
		if !slices.Contains(ids, n) {
			mc.Status = checkWarn
			mc.Detail = fmt.Sprintf("%s answers but does not list %q (an alias may still work)", m.Provider, n)
			mc.Fix = "check the name in [model] against the provider's model list"
		}
		out = append(out, mc)
	}
	return out
}

// configuredModels returns the distinct model names of m, the default first.
func configuredModels(m config.Model) []string {
	var out []string
	for _, n := range []string{m.Model, m.Purposes.Act, m.Purposes.Observe, m.Purposes.Extract, m.Purposes.Heal, m.Purposes.Decide} {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

type statusError struct {
	code   int
	status string
}

func (e *statusError) Error() string { return "the provider answered " + e.status }

// listModels GETs a provider's model list ({"data":[{"id":…}]}).
func listModels(ctx context.Context, hc *http.Client, url string, auth func(http.Header)) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	auth(req.Header)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{code: resp.StatusCode, status: resp.Status}
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&list); err != nil {
		return nil, fmt.Errorf("GET %s: unreadable model list: %w", url, err)
	}
	ids := make([]string, len(list.Data))
	for i, d := range list.Data {
		ids[i] = d.ID
	}
	return ids, nil
}

// CheckNetwork says whether pages reach the network only through the
// daemon's address-pinning proxy (driver/netguard.go), which is what keeps
// a name that resolves differently the second time (DNS rebinding) from
// reaching a private address. Without it the check before each navigation
// still runs, so this warns and never fails.
func CheckNetwork(o *DoctorOptions, c *config.Config, local bool) DoctorCheck {
	ck := DoctorCheck{Name: "network"}
	opts, err := cmdutil.DriverOptions(c)
	if err != nil {
		ck.Status, ck.Detail = checkFail, err.Error()
		return ck
	}
	access := opts.Policy.Access()
	opts.Args = append(opts.Args, o.BrowserArgs...)
	if local {
		opts.CDP = ""
	}
	why := driver.ProxyOff(opts, o.Env())
	switch {
	case why == "":
		ck.Status, ck.Detail = checkOK, fmt.Sprintf("pages reach the network through the daemon's proxy, which connects only to addresses the policy judged (private_network = %q)", access)
	case access == policy.AccessAll:
		ck.Status, ck.Detail = checkOK, why
	default:
		ck.Status, ck.Detail = checkWarn, "each navigation is checked before it goes, but a name that resolves differently for the browser (DNS rebinding) is not caught: "+why
		ck.Fix = "use a browser waymark starts, with no proxy flags or proxy variables of your own, for the full check"
	}
	return ck
}

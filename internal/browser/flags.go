package browser

import (
	"os"

	"github.com/chromedp/chromedp"
)

// Flags returns the allocator options for a local Chromium: chromedp's
// defaults plus the flags that keep Chromium from stalling on a closed network
// (no background fetches, no component updates, no QUIC), and --no-sandbox
// when running as root, where Chromium refuses to start with its sandbox.
func Flags(execPath string, headless bool, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.ExecPath(execPath),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		// Chromium's own traffic, which would go out through the daemon's
		// proxy (issue 12): autofill server queries (over 300 an hour),
		// optimization hints, media router discovery, certificate
		// transparency updates, domain reliability reports, field trials.
		// Checked by internal/adversarial's TestNoBackgroundTraffic.
		// WebUIOmnibox*Popup: this Chromium starts a ~42 MB renderer for the
		// omnibox popup of every window, and each session opens a window.
		// NetworkTimeServiceQuerying: the network-time fetch at start-up
		// (clients2.google.com/time).
		// AimServerEligibilityEnabled, AimServerRequestOnStartupEnabled:
		// Chromium 148 asks www.google.com/async/folae whether "AI mode"
		// may be offered, at start-up and again every few seconds.
		// PreconnectToSearch, SearchEnginePreconnect2: it also keeps a
		// connection open to its default search engine (www.google.com)
		// for a search nobody types here.
		chromedp.Flag("disable-features", "NetworkTimeServiceQuerying,Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,OptimizationGuideModelDownloading,InterestFeedContentSuggestions,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,AimServerEligibilityEnabled,AimServerRequestOnStartupEnabled,PreconnectToSearch,SearchEnginePreconnect2"),
		// WebMCP: a page's modelContext.registerTool reaches DevTools (the
		// WebMCP domain), so its tools are read and called without running
		// anything in the page's world (driver/internal/pagetool).
		// Chromium 148 splits it in three: WebMCP is the page's API
		// (navigator.modelContext), DevToolsWebMCPSupport the WebMCP domain
		// (without it WebMCP.enable is "not found"), and WebMCPTesting
		// navigator.modelContextTesting, the only way 148 calls a tool
		// (its domain has no invokeTool), used from our isolated world. A
		// Chromium that does not know a name ignores it. A user's own
		// --enable-features replaces them all.
		chromedp.Flag("enable-features", "WebMCP,DevToolsWebMCPSupport,WebMCPTesting"),
		// Two start-up requests no switch turns off (issue 28): the sign-in
		// cookie check (accounts.google.com/ListAccounts, sent for every
		// profile once its network is up) and the on-device model's
		// component manifest (update.googleapis.com, installed "on demand"
		// despite --disable-component-update). Both endpoints point at port
		// 9 of loopback, a port on Chromium's own restricted list: the
		// requests end inside the browser (ERR_UNSAFE_PORT) with no socket,
		// no name look-up and nothing through the proxy. Checked from before
		// the launch by internal/adversarial's TestNoBackgroundTraffic.
		chromedp.Flag("gaia-url", "http://127.0.0.1:9/"),
		chromedp.Flag("component-updater", "url-source=http://127.0.0.1:9/"),
		// Chromium 148's push messaging client checks in
		// (android.clients.google.com/checkin) at start-up; its check-in
		// and registration endpoints go to the same closed port.
		chromedp.Flag("gcm-checkin-url", "http://127.0.0.1:9/"),
		chromedp.Flag("gcm-registration-url", "http://127.0.0.1:9/"),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-field-trial-config", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("disable-ipc-flooding-protection", true),
		chromedp.Flag("disable-popup-blocking", true),
		chromedp.Flag("disable-prompt-on-repost", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		// V8 favours memory over speed in every renderer: a smaller young
		// generation and a heap that grows slower (issue 32: ~3 MB less a
		// renderer, ~30 MB with ten sessions, no change to what a page
		// sees). A user's own --js-flags replaces it.
		chromedp.Flag("js-flags", "--optimize-for-size"),
		chromedp.WindowSize(1280, 800),
	}
	if headless {
		opts = append(opts, chromedp.Headless)
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	return append(opts, extra...)
}

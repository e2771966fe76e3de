package calls

import (
	"regexp"
	"strings"
	"sync"
)

// Hints are written for the command line (`waymark snapshot`, --timeout),
// the words most of waymark's users read; the MCP server says them in its
// tools' words. ProgramHint says them to a Go program: a command becomes
// the call of the session that does the same, a flag the option; advice
// with no call to it (`waymark daemon restart`, `waymark doctor`) is left
// as it is, for the person behind the program.

// cmdInHint is a command as [Cmd] writes it, with the "run " before it;
// compiled at first use, never at init (every command would pay for it).
var cmdInHint = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(run )?`waymark ([^`]*)`") })

// goCalls maps a command's words (the first two, then the first) to the
// Go call that does it.
var goCalls = map[string]string{
	"snapshot": "Session.Snapshot", "get": "Session.Get", "open": "Session.Open",
	"reload": "Session.Reload", "back": "Session.Back", "forward": "Session.Forward",
	"click": "Session.Act", "click-at": "Session.Act", "act": "pilot's Act", "extract": "pilot's Extract",
	"dialog": "Session.Dialog", "tab": "Session.Tab", "locate": "Session.Locate",
	"wait": "Session.Wait", "viewport": "Session.Viewport", "eval": "Session.Eval",
	"screenshot": "Session.Screenshot", "cookies": "Session.Cookies", "storage": "Session.Storage",
	"state save": "Session.StateSave", "state load": "Session.StateLoad",
	"form": "Session.Form", "form fill": "Session.FillForm", "form review": "Session.FormReview",
	"sheet read": "Session.SheetRead", "sheet dump": "Session.SheetDump", "sheet fill": "Session.SheetFill", "sheet write": "Session.SheetWrite",
	"doc read": "Session.DocRead", "doc find": "Session.DocFind", "doc insert": "Session.DocInsert",
	"capture start": "Session.StartCapture", "capture stop": "Session.StopCapture",
	"netlog": "Session.NetLog", "tool": "Session.PageTool",
	"api learn": "siteapi.Learn", "api call": "Session.CallAPI",
	"replay": "replay.Run", "run": "pilot's Run",
}

// goFlags maps a flag a hint names ([HintFlags]) to the option or the
// request's field a program sets. A flag stands for the same field
// wherever hints name it: a hint that means another field writes it
// otherwise (TestHintFlagsAreKnown reads every hint).
var goFlags = map[string]string{
	"timeout":         "a longer timeout (driver.WithTimeout, or the request's TimeoutMS)",
	"executable-path": "driver.Options.ExecPath",
	"cdp":             "driver.Options.CDP",
	"headed":          "driver.Options.Headed",
	"private-network": "policy.Options",
	"allow-files":     "policy.Options",
	"recipe":          "a recipe (pilot's extract options)",
	"model":           "a model (pilot.Options)",
	"allow-submit":    "the approval (driver.WithApproval)",
	"approve":         "the approval (driver.WithApproval)",
	"ask-submit":      "pilot's RunOptions.Ask",
	"button":          "ActRequest.Button",
	"by":              "ActRequest.By",
	"after":           "DocInsertRequest.After",
	"replace":         "DocInsertRequest.Replace",
	"end":             "DocInsertRequest.End",
	"editor":          "the request's Editor",
	"url":             "Cookie.URL",
	"var":             "the Vars of the call's options",
	"secret":          "the Secrets of the call's options",
	"input":           "RunOptions.Inputs",
	"max-steps":       "RunOptions.MaxSteps",
	"key":             "batch.Spec.Key",
	"session":         "another Session",
	"vision":          "pilot.Options.Vision",
	"base-url":        "the model's Options.BaseURL (model/openai)",
}

// browserForProgram says the hints about the browser a program launched
// (the policy hints of driver/guard.go, driver/files.go and siteapi; the
// browser gone) to a program: its browser is the one it launched, with the
// driver.Options.Policy it launched with, not the daemon's and
// waymark.toml, which a program never reads.
var browserForProgram = []struct{ says, program string }{
	{"the allow and block lists of [policy] in waymark.toml",
		"change the Allow and Block lists of the policy the browser was launched with (policy.Options, driver.Options.Policy)"},
	{"[policy] private_network in waymark.toml",
		"launch the browser with a policy whose PrivateNetwork lets the address through (policy.Options.PrivateNetwork, driver.Options.Policy)"},
	{"files = true in [policy] of waymark.toml",
		"launch the browser with a policy that allows local files (policy.Options.Files, driver.Options.Policy)"},
	// The daemon starts a new browser for the next command; a program's
	// browser is the one it launched, gone for good.
	{"run the command again: a new browser starts",
		"close the Browser and launch another (driver.Launch); this one is gone"},
}

// submitForProgram is the hint of an action held for approval: a program
// has no flag to pass, it sends the approval back.
const submitForProgram = "have a person review the approval (calls.ApprovalOf(err)), then do the action again with it (driver.WithApproval; through the pilot, ActOptions.Approve)"

// NameCommands rewrites each command a hint names as [Cmd] writes it, for
// a front with other words for it (a Go program's calls, MCP's tools):
// name gets the command's words (at least one) and returns what does the
// same there, or "" for none (the command stays, as advice for the
// person). "run `waymark X`" becomes "call NAME", "`waymark X`" NAME.
// Flags before the command (`waymark --allow-files open FILE`) are
// settings of how the CLI starts the browser, which a front started
// otherwise has its own way to set (its policy refuses what they would
// allow, in words of its own): name gets the command's words after them.
func NameCommands(h string, name func(words []string) string) string {
	re := cmdInHint()
	return re.ReplaceAllStringFunc(h, func(m string) string {
		sub := re.FindStringSubmatch(m)
		words := strings.Fields(sub[2])
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
		if len(words) == 0 {
			return m
		}
		switch n := name(words); {
		case n == "":
			return m
		case sub[1] != "":
			return "call " + n
		default:
			return n
		}
	})
}

// ProgramHint is err's hint ([Hint]) in a Go program's words.
func ProgramHint(err error) string {
	return programWords(Hint(err))
}

func programWords(h string) string {
	if strings.Contains(h, "--allow-submit") {
		return submitForProgram
	}
	for _, p := range browserForProgram {
		if strings.Contains(h, p.says) {
			// The policy's own words stand for the whole hint but its
			// other way round, when it has one ("; or serve the folder").
			rest := ""
			if i := strings.Index(h, "; or "); i >= 0 {
				rest = programWords(h[i:])
			}
			return p.program + rest
		}
	}
	h = NameCommands(h, func(words []string) string {
		if len(words) > 1 {
			if call := goCalls[words[0]+" "+words[1]]; call != "" {
				return call
			}
		}
		return goCalls[words[0]]
	})
	var said []string
	h = NameFlags(h, func(flag string) string {
		if o := goFlags[flag]; o != "" {
			said = append(said, o)
		}
		return goFlags[flag]
	})
	for _, o := range said { // a program sets an option; it passes none
		h = strings.ReplaceAll(h, "pass "+o, "set "+o)
	}
	return h
}

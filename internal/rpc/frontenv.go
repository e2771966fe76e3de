package rpc

import "strings"

// FrontEnv is the part of env (KEY=VALUE lines, as os.Environ gives)
// that the thin front sends with a command (CLIRunRequest.Env), and the
// only part the daemon lets that command read: waymark's own settings,
// the few variables that shape the output or locate the user's folders,
// and the variables the command line itself names in a --secret
// NAME=env:VAR. Nothing else: a model key (OPENAI_API_KEY), a token, the
// variable another command's secret comes from never reaches the daemon's
// memory. An allowlist, as secret.Environ is for the processes waymark
// starts: a secret's variable can have any name.
//
// The front links no more than this package to decide it (it starts on
// every command), so the scan of --secret here reads only the env: form
// of the one reference grammar, secret.ParseRef; a test keeps them in
// step.
func FrontEnv(env, args []string) []string {
	named := namedVars(args)
	out := make([]string, 0, len(frontEnvNames)+len(named))
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if ok && (frontEnvNames[name] || named[name]) {
			out = append(out, kv)
		}
	}
	return out
}

// frontEnvNames are the variables [FrontEnv] keeps by name: what
// config.Load reads (config.EnvNames), WAYMARK_SOCKET, what decides
// colour, and where the user's folders are.
var frontEnvNames = map[string]bool{
	"WAYMARK_SOCKET": true, "WAYMARK_SESSION": true, "WAYMARK_BROWSER": true, "WAYMARK_BROWSER_ARGS": true,
	"WAYMARK_CDP": true, "WAYMARK_PRIVATE_NETWORK": true, "WAYMARK_ALLOW_FILES": true, "WAYMARK_MODEL": true, "WAYMARK_MEMORY_DIR": true,
	"NO_COLOR": true, "TERM": true,
	"HOME": true, "XDG_CONFIG_HOME": true, "XDG_STATE_HOME": true, "XDG_CACHE_HOME": true, "XDG_RUNTIME_DIR": true,
}

// namedVars are the variables the command line's --secret flags read:
// --secret NAME=env:VAR and --secret=NAME=env:VAR, up to a "--".
func namedVars(args []string) map[string]bool {
	named := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		var val string
		switch {
		case a == "--secret" && i+1 < len(args):
			i++
			val = args[i]
		case strings.HasPrefix(a, "--secret="):
			val = a[len("--secret="):]
		default:
			continue
		}
		_, src, _ := strings.Cut(val, "=")
		if v, ok := strings.CutPrefix(src, "env:"); ok && v != "" {
			named[v] = true
		}
	}
	return named
}

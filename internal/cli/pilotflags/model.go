package pilotflags

import (
	"log/slog"
	"strings"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/model"

	"github.com/waymark-dev/waymark/model/anthropic"
	"github.com/waymark-dev/waymark/model/openai"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// ModelFlags choose the model for act, observe, extract and run.
type ModelFlags struct {
	Model   string // --model, WAYMARK_MODEL: "rules", "anthropic:NAME", "openai:NAME", or a bare model name
	BaseURL string // --base-url, OPENAI_BASE_URL: an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio)
}

// NewModel builds the model the flags, the environment and the config
// file's [model] section ask for, in that order of precedence; a purpose
// with a model of its own in [model.purposes] gets it (pilot.Models routes
// by purpose). With no key and no server it is the rules model, which needs
// neither.
func NewModel(f ModelFlags, cfg config.Model, getenv func(string) string, log *slog.Logger) (pilot.Model, string, error) {
	spec := strings.TrimSpace(f.Model)
	if spec == "" {
		spec = getenv("WAYMARK_MODEL")
	}
	if spec == "" && cfg.Provider != "" {
		spec = cfg.Provider
		if cfg.Model != "" && cfg.Provider != "rules" {
			spec += ":" + cfg.Model
		}
	}
	base := f.BaseURL
	if base == "" {
		base = getenv("OPENAI_BASE_URL")
	}
	if base == "" {
		base = cfg.BaseURL
	}
	m, desc, err := oneModel(spec, base, getenv, cfg, log)
	if err != nil {
		return m, desc, err
	}
	// Per-purpose models from [model.purposes], on the default model's
	// provider, however that was chosen (a prefix, a name, a key).
	provider, _, err := resolveSpec(spec, base, getenv)
	if err != nil {
		return nil, "", err
	}
	by := map[pilot.Purpose]pilot.Model{}
	for _, p := range []pilot.Purpose{pilot.PurposeAct, pilot.PurposeObserve, pilot.PurposeExtract, pilot.PurposeHeal, pilot.PurposeDecide} {
		name := cfg.For(string(p))
		if name == "" || name == cfg.Model || provider == "rules" {
			continue
		}
		pm, pdesc, err := oneModel(provider+":"+name, base, getenv, cfg, log)
		if err != nil {
			return nil, "", err
		}
		by[p] = pm
		desc += "; " + string(p) + ": " + pdesc
	}
	if len(by) > 0 {
		return pilot.Models{Default: m, ByPurpose: by}, desc, nil
	}
	return m, desc, nil
}

// oneModel builds one model from a spec ("rules", "anthropic:NAME",
// "openai:NAME", a bare name or "") and a base URL.
func oneModel(spec, base string, getenv func(string) string, cfg config.Model, log *slog.Logger) (pilot.Model, string, error) {
	key := func(env string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return cfg.APIKey // from a 0600 file; config refuses it otherwise
	}
	provider, name, err := resolveSpec(spec, base, getenv)
	if err != nil {
		return nil, "", err
	}
	pics := map[string]model.Pictures{"yes": model.PicturesRead, "no": model.PicturesTextOnly}[cfg.Pictures]
	switch provider {
	case "rules":
		return rules.New(), "rules (no model key: plain instructions only)", nil
	case "anthropic":
		m, err := anthropic.New(anthropic.Options{APIKey: key("ANTHROPIC_API_KEY"), BaseURL: anthropicBase(cfg), Model: name, Logger: log, Pictures: pics})
		if err != nil {
			return nil, "", err
		}
		return m, "anthropic " + orDefault(name, anthropic.DefaultModel), nil
	case "openai":
		m, err := openai.New(openai.Options{APIKey: key("OPENAI_API_KEY"), BaseURL: base, Model: name, Logger: log, Pictures: pics})
		if err != nil {
			return nil, "", err
		}
		where := "openai"
		if base != "" {
			where = base
		}
		return m, where + " " + orDefault(name, string(openai.DefaultModel)), nil
	}
	return nil, "", cmdutil.UsageErrorf("providers: rules, anthropic, openai", "unknown model provider %q", provider)
}

// resolveSpec says which provider serves a model spec ("rules",
// "anthropic:NAME", "openai:NAME", a bare name or "") and the model's name:
// a prefix, else the name's family, else a base URL or the key there is.
func resolveSpec(spec, base string, getenv func(string) string) (provider, name string, err error) {
	provider, name, _ = strings.Cut(spec, ":")
	if !strings.Contains(spec, ":") && spec != "anthropic" && spec != "openai" {
		provider, name = "", spec
		switch low := strings.ToLower(spec); {
		case low == "rules":
			provider, name = "rules", ""
		case strings.HasPrefix(low, "claude"):
			provider = "anthropic"
		case strings.HasPrefix(low, "gpt") || strings.HasPrefix(low, "o1") || strings.HasPrefix(low, "o3") || strings.HasPrefix(low, "o4"):
			provider = "openai"
		}
	}
	if provider == "" {
		switch {
		case base != "":
			provider = "openai"
		case getenv("ANTHROPIC_API_KEY") != "":
			provider = "anthropic"
		case getenv("OPENAI_API_KEY") != "":
			provider = "openai"
		case name != "":
			return "", "", cmdutil.UsageErrorf(`write --model anthropic:NAME or openai:NAME, or set ANTHROPIC_API_KEY or OPENAI_API_KEY`,
				"cannot tell which provider serves the model %q", name)
		default:
			provider = "rules"
		}
	}
	return provider, name, nil
}

// anthropicBase is the address of Anthropic's API the configuration
// gives: [model] base_url when the file's provider is anthropic (a
// gateway, a proxy); --base-url and OPENAI_BASE_URL name
// OpenAI-compatible servers only.
func anthropicBase(cfg config.Model) string {
	if cfg.Provider == "anthropic" {
		return cfg.BaseURL
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

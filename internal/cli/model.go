package cli

import (
	"log/slog"
	"strings"

	"github.com/waymark-dev/waymark/internal/model/anthropic"
	"github.com/waymark-dev/waymark/internal/model/openai"
	"github.com/waymark-dev/waymark/internal/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// ModelFlags choose the model for act, observe, extract and run.
type ModelFlags struct {
	Model   string // --model, WAYMARK_MODEL: "rules", "anthropic:NAME", "openai:NAME", or a bare model name
	BaseURL string // --base-url, OPENAI_BASE_URL: an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio)
}

// newModel builds the model the flags and environment ask for. With no key
// and no server it is the rules model, which needs neither.
func newModel(f ModelFlags, getenv func(string) string, log *slog.Logger) (pilot.Model, string, error) {
	spec := strings.TrimSpace(f.Model)
	if spec == "" {
		spec = getenv("WAYMARK_MODEL")
	}
	base := f.BaseURL
	if base == "" {
		base = getenv("OPENAI_BASE_URL")
	}
	provider, name, _ := strings.Cut(spec, ":")
	if !strings.Contains(spec, ":") {
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
			return nil, "", usageErrorf(`write --model anthropic:NAME or openai:NAME, or set ANTHROPIC_API_KEY or OPENAI_API_KEY`,
				"cannot tell which provider serves the model %q", name)
		default:
			provider = "rules"
		}
	}
	switch provider {
	case "rules":
		return rules.New(), "rules (no model key: plain instructions only)", nil
	case "anthropic":
		m, err := anthropic.New(anthropic.Options{APIKey: getenv("ANTHROPIC_API_KEY"), Model: name, Logger: log})
		if err != nil {
			return nil, "", err
		}
		return m, "anthropic " + orDefault(name, anthropic.DefaultModel), nil
	case "openai":
		m, err := openai.New(openai.Options{APIKey: getenv("OPENAI_API_KEY"), BaseURL: base, Model: name, Logger: log})
		if err != nil {
			return nil, "", err
		}
		where := "openai"
		if base != "" {
			where = base
		}
		return m, where + " " + orDefault(name, string(openai.DefaultModel)), nil
	}
	return nil, "", usageErrorf("providers: rules, anthropic, openai", "unknown model provider %q", provider)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

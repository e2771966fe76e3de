package pilot

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/secret"
)

// Pilot shows a model the page through a [Driver] and performs the step the
// model proposes, with the element's evidence taken from the live page.
type Pilot struct {
	d    Driver
	m    Model
	opts Options
	log  *slog.Logger
	// asked counts the model calls made (a run adds those of the reads
	// it makes through other methods).
	asked atomic.Int64
}

// Options tune a pilot. The zero value is valid.
type Options struct {
	// Logger receives a line per model call (purpose, duration, tokens); nil
	// discards. Secret values are masked before anything is logged.
	Logger *slog.Logger
	// Secrets holds known secret values; nil makes an empty set. A value in
	// it never reaches a prompt, a log line or a result.
	Secrets *secret.Set
	// MaxPageChars bounds the outline sent in one model call; longer pages
	// are read in chunks by Extract. Zero means 60,000 characters.
	MaxPageChars int
	// MaxChunks bounds the parts of one page Extract reads, each one model
	// call (or two, with a retry): a page longer than that is read from its
	// top, and the result says how much was left. Zero means 8.
	MaxChunks int
	// Memory keeps short notes about sites from one run to the next: a
	// heal asks it for the notes on the page's site, and a replay tells
	// it what it learned. Nil keeps none.
	Memory Memory
	// Vision says when a picture of the view goes with act's, extract's
	// and the agent loop's questions ([Vision]); "" means [VisionAuto]:
	// only when the outline is thin for what the view shows ([Thin]),
	// and only to a model that reads pictures ([PictureReader]).
	Vision Vision
}

// New returns a pilot over a driver and a model. It starts nothing.
func New(d Driver, m Model, opts *Options) *Pilot {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Secrets == nil {
		o.Secrets = new(secret.Set)
	}
	if o.MaxPageChars <= 0 {
		o.MaxPageChars = 60000
	}
	if o.MaxChunks <= 0 {
		o.MaxChunks = 8
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(secret.NewHandler(log.Handler(), o.Secrets))
	return &Pilot{d: d, m: m, opts: o, log: log}
}

// Vars are the values an instruction's %name% placeholders stand for.
// Plain values may be shown to the model; secrets never are: the model sees
// the placeholder's name, and the page gets the value.
type Vars struct {
	Values  map[string]string
	Secrets map[string]secret.Value
}

// lookup returns a placeholder's value.
func (v Vars) lookup(name string) (string, bool) {
	if s, ok := v.Secrets[name]; ok {
		return s.Reveal(), true
	}
	s, ok := v.Values[name]
	return s, ok
}

// shown is s as a result may show it: plain placeholders replaced by their
// values, secret ones by «secret:name».
func (v Vars) shown(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		if _, ok := v.Secrets[name]; ok {
			return secret.Mark(name)
		}
		if val, ok := v.Values[name]; ok {
			return val
		}
		return m
	})
}

// expand replaces %name% placeholders with their values; an unknown name
// is an error naming it.
func (v Vars) expand(s string) (string, error) {
	var missing []string
	out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		val, ok := v.lookup(name)
		if !ok {
			missing = append(missing, name)
			return m
		}
		return val
	})
	if len(missing) > 0 {
		return "", calls.WithHint(fmt.Errorf("no value for %%%s%%", missing[0]), fmt.Sprintf("pass it with --var %s=… or --secret %s=env:VAR", missing[0], missing[0]))
	}
	return out, nil
}

// remember adds the secrets of vars to the pilot's known set, so they are
// masked wherever they would show.
func (p *Pilot) remember(v Vars) {
	for name, s := range v.Secrets {
		p.opts.Secrets.Add(name, s.Reveal())
	}
}

// mask hides known secrets in text bound for a model or a result.
func (p *Pilot) mask(s string) string { return p.opts.Secrets.Redact(s) }

// maskPage is mask for an outline. The value of a field a secret went
// into is masked by the driver too, by position (secretIn).
func (p *Pilot) maskPage(outline string) string { return p.mask(outline) }

// ask sends one turn, logging its purpose and usage.
func (p *Pilot) ask(ctx context.Context, turn Turn) (Reply, error) {
	// A last guard: nothing secret leaves in a prompt, whatever built it.
	turn.System = p.mask(turn.System)
	for i := range turn.Messages {
		turn.Messages[i].Text = p.mask(turn.Messages[i].Text)
	}
	p.asked.Add(1)
	r, err := p.m.Next(ctx, turn)
	p.log.Info("model call", "purpose", string(turn.Purpose), "model", r.Model,
		"input_tokens", r.Usage.InputTokens, "output_tokens", r.Usage.OutputTokens, "ok", err == nil)
	if err != nil {
		return r, fmt.Errorf("%s: %w", turn.Purpose, err)
	}
	return r, nil
}

// refLine finds the outline line of a ref, without its indentation and
// "- ", or "".
func refLine(text, ref string) string {
	l, _ := outline.FindRef(text, ref)
	return l.Raw
}

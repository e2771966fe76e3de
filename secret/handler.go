package secret

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
)

// NewHandler returns a handler that passes records to h with the message
// and every attribute value (through groups, and after resolving
// [slog.LogValuer]s) run through set's Redact. A nil set redacts with the
// heuristic only. Values of kind Any are formatted with %+v first and
// logged as redacted strings: a struct could otherwise carry a secret in a
// plain string field past the redaction.
func NewHandler(h slog.Handler, set *Set) slog.Handler {
	return &handler{base: h, set: set, cache: new(atomic.Pointer[derived])}
}

// handler keeps the WithAttrs/WithGroup calls made on it rather than
// passing redacted attributes down at once, because a value added to the
// set later must be masked in attributes attached earlier. The derived
// handler is rebuilt when the set changes.
type handler struct {
	base  slog.Handler
	set   *Set
	ops   []op // WithAttrs and WithGroup calls, oldest first
	cache *atomic.Pointer[derived]
}

// op is one WithAttrs (attrs set) or WithGroup (group set) call.
type op struct {
	attrs []slog.Attr
	group string
}

// derived is base with ops applied, for one generation of the set.
type derived struct {
	gen uint64
	h   slog.Handler
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.base.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.set.Redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.derived().Handle(ctx, out)
}

func (h *handler) derived() slog.Handler {
	gen := h.set.generation()
	if d := h.cache.Load(); d != nil && d.gen == gen {
		return d.h
	}
	d := h.base
	for _, o := range h.ops {
		if o.attrs != nil {
			d = d.WithAttrs(h.attrs(o.attrs))
		} else {
			d = d.WithGroup(o.group)
		}
	}
	h.cache.Store(&derived{gen, d})
	return d
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) == 0 {
		return h
	}
	return h.with(op{attrs: as})
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.with(op{group: name})
}

func (h *handler) with(o op) slog.Handler {
	ops := append(h.ops[:len(h.ops):len(h.ops)], o)
	return &handler{base: h.base, set: h.set, ops: ops, cache: new(atomic.Pointer[derived])}
}

func (h *handler) attrs(as []slog.Attr) []slog.Attr {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return out
}

func (h *handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		v = slog.StringValue(h.set.Redact(v.String()))
	case slog.KindGroup:
		v = slog.GroupValue(h.attrs(v.Group())...)
	case slog.KindAny:
		v = slog.StringValue(h.set.Redact(anyString(v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// anyString formats a value as handlers would, with errors by their
// message.
func anyString(x any) string {
	if err, ok := x.(error); ok {
		return err.Error()
	}
	return fmt.Sprintf("%+v", x)
}

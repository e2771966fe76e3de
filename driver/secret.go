package driver

import (
	"github.com/chromedp/cdproto/cdp"

	"github.com/waymark-dev/waymark/internal/outline"
)

// A field a caller typed a secret into (calls.ActRequest.Secret) shows
// «secret:name» in every outline of the session from then on, whatever
// it holds: the daemon never learns which values are secret otherwise,
// and a later look from another process (waymark snapshot after waymark
// act --secret) must not print it. Masking by position, not by value,
// also covers values too short to mask by value.

// markSecret remembers that el holds the secret name; "" marks nothing.
func (s *Session) markSecret(el *element, name string) {
	if name == "" || el == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secrets == nil {
		s.secrets = map[cdp.BackendNodeID]string{}
	}
	// Keyed by node alone: an element found by a locator and the same one
	// in a look may name its frame differently, and a node id shared by
	// two renderers at most masks one field too many.
	s.secrets[el.node] = name
}

// maskSecrets replaces the value of every marked field in a look.
func (s *Session) maskSecrets(root *outline.Node) {
	s.mu.Lock()
	marks := make(map[cdp.BackendNodeID]string, len(s.secrets))
	for k, v := range s.secrets {
		marks[k] = v
	}
	s.mu.Unlock()
	if len(marks) == 0 {
		return
	}
	root.Walk(func(n *outline.Node, _ int) bool {
		if name, ok := marks[backendOf(n)]; ok && n.Value != "" {
			n.Value = "«secret:" + name + "»"
		}
		return true
	})
}

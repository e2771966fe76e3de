package build

import "github.com/waymark-dev/waymark/internal/outline"

func inferredName(n *outline.Node) string { return n.Inferred }

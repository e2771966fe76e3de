package config

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/waymark-dev/waymark/secret"
)

// Entry is one key of a [Config] as [Show] prints it.
type Entry struct {
	Key    string `json:"key"`    // "browser.cdp"
	Value  any    `json:"value"`  // string, bool, []string or a duration string; secrets masked
	Source string `json:"source"` // see [Config.Sources]
}

// Entries returns every key with its value and source, in the order of the
// file's sections, secrets masked with [Mask].
func (c *Config) Entries() []Entry {
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		var v any
		switch p := k.field(c).(type) {
		case *string:
			v = *p
			if k.secret {
				v = Mask(*p)
			}
		case *Engine:
			v = string(*p)
		case *bool:
			v = *p
		case *time.Duration:
			v = p.String()
		case *[]string:
			v = append([]string{}, *p...)
		}
		src := c.sources[k.name]
		if src == "" {
			src = SourceDefault
		}
		out = append(out, Entry{Key: k.name, Value: v, Source: src})
	}
	return out
}

// Mask hides a secret: "" stays "", a long one keeps its last four
// characters ("••••1234"), a short one reads "[set]".
func Mask(s string) string {
	switch {
	case s == "":
		return ""
	case len(s) >= 12:
		return secret.Masked + s[len(s)-4:]
	default:
		return "[set]"
	}
}

// Show writes c as TOML with a "# from …" comment on each key, secrets
// masked: the text of `waymark config show`.
func Show(w io.Writer, c *Config) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	files := c.Files()
	if len(files) == 0 {
		fmt.Fprintln(tw, "# no config file; defaults, environment and flags only")
	} else {
		fmt.Fprintf(tw, "# files: %s\n", strings.Join(files, ", "))
	}
	section := ""
	for _, e := range c.Entries() {
		sec, leaf := splitKey(e.Key)
		if sec != section {
			section = sec
			fmt.Fprintf(tw, "\n[%s]\n", sec)
		}
		fmt.Fprintf(tw, "%s = %s\t# from %s\n", leaf, tomlValue(e.Value), e.Source)
	}
	return tw.Flush()
}

// tomlValue formats v as a TOML value; "[set]", the mask of a short
// secret, stays bare so it cannot pass for the value.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		if x == "[set]" {
			return x
		}
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

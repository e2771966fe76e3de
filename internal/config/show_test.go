package config

import (
	"bytes"
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "[set]"},
		{"sk-ant-api03-abcdefgh1234", "••••1234"},
	}
	for _, tt := range tests {
		if got := Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShow(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    []string
		notWant []string
	}{
		{
			name: "long key masked",
			env:  map[string]string{"ANTHROPIC_API_KEY": "sk-ant-api03-secretsecret9876", "WAYMARK_CDP": "9222"},
			want: []string{
				`api_key = "••••9876"`, "# from env ANTHROPIC_API_KEY",
				`cdp = "9222"`, "# from env WAYMARK_CDP",
				`engine = "auto"`, "[model.purposes]", "headless = true",
			},
			notWant: []string{"secretsecret"},
		},
		{
			name:    "short key shows only that it is set",
			env:     map[string]string{"OPENAI_API_KEY": "sk-tiny"},
			want:    []string{"api_key = [set]", `provider = "openai"`},
			notWant: []string{"sk-tiny"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, pp := dirs(t, "", "[policy]\nallow = [\"https://a.example/*\"]\n")
			opts.Getenv = envOf(tt.env)
			c, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Show(&b, c); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range append(tt.want, `allow = ["https://a.example/*"]`, "# from "+pp, "# files: "+pp) {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output shows %q:\n%s", w, out)
				}
			}
			for _, e := range c.Entries() {
				if s, ok := e.Value.(string); ok && strings.Contains(s, "sk-") {
					t.Errorf("Entries leaks %s = %q", e.Key, s)
				}
			}
		})
	}
}

package secret

import (
	"slices"
	"testing"
)

func TestEnviron(t *testing.T) {
	env := []string{
		"PATH=/usr/bin", "HOME=/home/ann", "LC_ALL=C", "XDG_RUNTIME_DIR=/run/user/1", "WAYMARK_SOCKET=/tmp/w.sock",
		"https_proxy=http://proxy:3128", "http_proxy=http://ann:Zq8-pass-Xw2@proxy:3128",
		"OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyzAB12", "ANTHROPIC_API_KEY=sk-ant-api03-xyz",
		"S=482", "GITHUB_TOKEN=ghp_x", "WAYMARK_MODEL=anthropic:claude", "AWS_SECRET_ACCESS_KEY=abc", "not-an-entry",
	}
	want := []string{"PATH=/usr/bin", "HOME=/home/ann", "LC_ALL=C", "XDG_RUNTIME_DIR=/run/user/1", "WAYMARK_SOCKET=/tmp/w.sock", "https_proxy=http://proxy:3128"}
	if got := Environ(env); !slices.Equal(got, want) {
		t.Errorf("Environ =\n%q\nwant\n%q", got, want)
	}
}

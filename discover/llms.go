package discover

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// llmsLink is one link of an llms.txt file (llmstxt.org): a markdown list
// item "- [name](url): notes" under a "## Section".
type llmsLink struct {
	URL, Name, Notes, Section string
}

var llmsItem = lazyre.New(`^\s*[-*+]\s*\[([^\]]{0,300})\]\(([^)\s]{1,1000})\)\s*(?::\s*(.{0,1000}))?`)

// parseLLMs reads at most limit links from an llms.txt file, and its
// title (the "# " line).
func parseLLMs(b []byte, limit int) (title string, links []llmsLink) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	section := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# ") && title == "":
			title = strings.TrimSpace(line[2:])
		case strings.HasPrefix(line, "## "):
			section = strings.TrimSpace(line[3:])
		default:
			m := llmsItem.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if len(links) >= limit {
				return title, links
			}
			links = append(links, llmsLink{URL: m[2], Name: strings.TrimSpace(m[1]), Notes: strings.TrimSpace(m[3]), Section: section})
		}
	}
	return title, links
}

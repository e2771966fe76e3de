package netcap

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/waymark-dev/waymark/capture"
)

const jsPageState = `(() => {
  const out = [];
  for (const m of document.querySelectorAll('meta[content]')) {
    const n = m.getAttribute('name') || m.getAttribute('property') || m.getAttribute('http-equiv') || m.getAttribute('itemprop');
    if (n) out.push(['meta:' + n, m.getAttribute('content')]);
  }
  for (const [name, st] of [['localStorage', () => localStorage], ['sessionStorage', () => sessionStorage]]) {
    try {
      const s = st();
      for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push([name + ':' + k, s.getItem(k)]); }
    } catch (e) {}
  }
  let n = 0;
  for (const s of document.querySelectorAll('script[type="application/json"], script[type="application/ld+json"], script#__NEXT_DATA__, script#__NUXT_DATA__')) {
    out.push(['script:' + (s.id || s.type + '#' + (n++)), s.textContent]);
  }
  return out;
})()`

// readState reads the page state and cookies of t's main frame into the
// capture.
func (c *Capture) ReadState(ctx context.Context, t Tab) {
	frame, url := t.Doc()
	if !strings.HasPrefix(url, "http") {
		return
	}
	var pairs [][2]string
	if err := t.EvalWorld(ctx, frame, jsPageState, &pairs); err != nil {
		return
	}
	if res, err := cdp.Call(ctx, t.Target(), network.GetCookies, network.GetCookiesParams{URLs: []string{url}}); err == nil {
		for _, ck := range res.Cookies {
			pairs = append(pairs, [2]string{"cookie:" + ck.Name, ck.Value})
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range pairs {
		// The name and page count as the value does: thousands of
		// empty values under long names are not free.
		k := url + "\x00" + p[0]
		old, had := c.state[k]
		size, oldSize := len(k)+len(p[1]), 0
		if had {
			oldSize = len(k) + len(old.Value)
		}
		if len(p[1]) > capMaxState || c.total-oldSize+size > c.maxTotal {
			c.dropped++
			continue
		}
		c.total += size - oldSize
		c.state[k] = capture.StateValue{Source: p[0], Page: url, Value: p[1]}
	}
}

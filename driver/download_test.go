package driver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// downloadServer serves a page of links and the files they download:
// /file?name=N&size=S answers S bytes as an attachment named N, slowly
// when slow is set (so the size limit cuts it off part way). /later?name=N
// is a page whose timer downloads a 10-byte N after it loads, outside any
// action.
func downloadServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Files</title>
<a id=csv href="/file?name=report.csv&size=100">Report</a>
<a id=big href="/file?name=big.csv&size=400000&slow=1">Big</a>
<a id=exe href="/file?name=setup.exe&size=100">Setup</a>
<a id=evil href="/file?name=..%2F..%2Fevil.csv&size=10">Evil</a>
<a id=attr href="/file?name=x.csv&size=10" download="../../../up.csv">Attr</a>
<a id=chunked href="/file?name=chunked.csv&size=400000&slow=1&chunked=1">Chunked</a>
<a id=slow href="/file?name=slow.csv&size=400000&slow=1&delay=150ms">Slow</a>
<a id=blank target=_blank href="/file?name=tab.csv&size=10">New tab</a>
<input type=file id=f>`)
		case "/later":
			w.Header().Set("Content-Type", "text/html")
			file := "/file?size=10&name=" + url.QueryEscape(r.URL.Query().Get("name"))
			fmt.Fprintf(w, `<title>Later</title><p>a download starts soon
<script>setTimeout(() => { location.href = %q }, 300)</script>`, file)
		case "/file":
			size, _ := strconv.Atoi(r.URL.Query().Get("size"))
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, r.URL.Query().Get("name")))
			if r.URL.Query().Get("chunked") == "" {
				w.Header().Set("Content-Length", strconv.Itoa(size))
			}
			slow := r.URL.Query().Get("slow") != ""
			delay := 50 * time.Millisecond
			if d, err := time.ParseDuration(r.URL.Query().Get("delay")); err == nil {
				delay = d
			}
			chunk := []byte(strings.Repeat("a,b\n", 4096)) // 16 KB
			for size > 0 {
				n := min(size, len(chunk))
				if _, err := w.Write(chunk[:n]); err != nil {
					return
				}
				size -= n
				if slow {
					w.(http.Flusher).Flush()
					select {
					case <-time.After(delay):
					case <-r.Context().Done():
						return
					}
				}
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// launchLimited starts a browser of the test's own with a small download
// limit and a single upload root.
func launchLimited(t *testing.T, opts driver.Options) (*driver.Browser, context.Context) {
	t.Helper()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	opts.ExecPath, opts.Args = path, browsertest.GuardArgs
	b, err := driver.Launch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, ctx
}

func oneDownload(t *testing.T, out *calls.Outcome) calls.Download {
	t.Helper()
	if len(out.Downloads) != 1 {
		t.Fatalf("want one download in the outcome, got %+v", out.Downloads)
	}
	return out.Downloads[0]
}

func TestDownloads(t *testing.T) {
	t.Parallel()
	b, ctx := launchLimited(t, driver.Options{Downloads: driver.DownloadOptions{MaxBytes: 64 << 10, Timeout: 20 * time.Second}})
	srv := downloadServer(t)
	s, err := b.Session(ctx, "downloads")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	click := func(id string) *calls.Outcome {
		return act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#" + id})
	}

	first := oneDownload(t, click("csv"))
	if first.State != calls.DownloadCompleted || first.Name != "report.csv" || first.Bytes != 100 {
		t.Fatalf("csv download: %+v", first)
	}
	data, err := os.ReadFile(first.Path)
	if err != nil || len(data) != 100 || filepath.Base(first.Path) != "report.csv" {
		t.Fatalf("csv file %s: %d bytes, %v", first.Path, len(data), err)
	}
	dir := filepath.Dir(first.Path)

	t.Run("same name gets a distinct path", func(t *testing.T) {
		d := oneDownload(t, click("csv"))
		if d.State != calls.DownloadCompleted || d.Path == first.Path || filepath.Base(d.Path) != "report (2).csv" {
			t.Fatalf("second csv download: %+v (first at %s)", d, first.Path)
		}
	})
	t.Run("over the size limit is canceled", func(t *testing.T) {
		d := oneDownload(t, click("big"))
		if d.State != calls.DownloadCanceled || d.Path != "" || !strings.Contains(d.Reason, "limit") {
			t.Fatalf("big download: %+v", d)
		}
	})
	t.Run("over the size limit with no length given is canceled", func(t *testing.T) {
		d := oneDownload(t, click("chunked"))
		if d.State != calls.DownloadCanceled || d.Path != "" || !strings.Contains(d.Reason, "limit") {
			t.Fatalf("chunked download: %+v", d)
		}
	})
	t.Run("from a new tab", func(t *testing.T) {
		// The tab closes as soon as its download begins, which once raced
		// the check of whose download it was: try it a few times.
		for range 3 {
			d := oneDownload(t, click("blank"))
			if d.State != calls.DownloadCompleted || d.Name != "tab.csv" {
				t.Fatalf("new tab download: %+v", d)
			}
		}
	})
	t.Run("a refused extension", func(t *testing.T) {
		d := oneDownload(t, click("exe"))
		if d.State != calls.DownloadRefused || d.Path != "" || !strings.Contains(d.Reason, ".exe") {
			t.Fatalf("exe download: %+v", d)
		}
	})
	t.Run("a name with ../ stays inside the folder", func(t *testing.T) {
		for _, id := range []string{"evil", "attr"} {
			d := oneDownload(t, click(id))
			if d.State != calls.DownloadCompleted || filepath.Dir(d.Path) != dir || strings.ContainsAny(d.Name, `/\`) || strings.HasPrefix(d.Name, ".") {
				t.Fatalf("%s download: %+v, folder %s", id, d, dir)
			}
		}
	})
	t.Run("an action with no download reports none", func(t *testing.T) {
		if out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActFocus, Target: "css=#f"}); len(out.Downloads) != 0 {
			t.Fatalf("downloads: %+v", out.Downloads)
		}
	})

	// Only the kept files are in the folder: nothing partial, nothing
	// refused. The browser may leave a stopped download's file a moment
	// after its stop; the watcher sweeps it at its next tick.
	var names []string
	for deadline := time.Now().Add(10 * time.Second); ; {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		names = names[:0]
		for _, e := range entries {
			names = append(names, e.Name())
		}
		kept := !slices.ContainsFunc(names, func(n string) bool { return !strings.HasSuffix(n, ".csv") })
		if len(names) == 7 && kept || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Seven kept .csv files: a partial (a GUID, a .crdownload), the
	// refused .exe or the canceled big ones would show among them.
	if len(names) != 7 || slices.ContainsFunc(names, func(n string) bool { return !strings.HasSuffix(n, ".csv") || strings.Contains(n, "big") }) {
		t.Fatalf("folder holds %q", names)
	}
	// The temporary folder goes with the session.
	if err := b.CloseSession("downloads"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("downloads folder %s after close: %v", dir, err)
	}
}

func TestDownloadTimeout(t *testing.T) {
	t.Parallel()
	b, ctx := launchLimited(t, driver.Options{Downloads: driver.DownloadOptions{MaxBytes: 1 << 20, Timeout: time.Second}})
	srv := downloadServer(t)
	s, err := b.Session(ctx, "timeout")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	// 400 KB at 16 KB every 150 ms takes nearly four seconds: it can end
	// only by the Timeout.
	d := oneDownload(t, act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#slow"}))
	if d.State != calls.DownloadCanceled || !strings.Contains(d.Reason, "longer") || d.Path != "" {
		t.Fatalf("slow download: %+v", d)
	}
}

func TestUploadRoots(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root, outside := filepath.Join(base, "allowed"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "in.txt"))
	write(filepath.Join(outside, "secret.txt"))
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "ln.txt")); err != nil {
		t.Fatal(err)
	}

	b, ctx := launchLimited(t, driver.Options{UploadRoots: []string{root}})
	srv := downloadServer(t)
	s, err := b.Session(ctx, "uploads")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	for _, f := range []string{
		filepath.Join(outside, "secret.txt"),
		filepath.Join(root, "link", "secret.txt"), // a folder link pointing out
		filepath.Join(root, "ln.txt"),             // a file link pointing out
		filepath.Join(root, "..", "outside", "secret.txt"),
	} {
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActUpload, Target: "css=#f", Files: []string{f}})
		var ce *calls.Error
		if !errors.Is(err, calls.ErrBadInput) || !errors.As(err, &ce) || ce.Hint == "" || !strings.Contains(err.Error(), "outside") {
			t.Fatalf("upload %s: %v", f, err)
		}
	}
	if got := evalString(t, s, ctx, `String(document.getElementById('f').files.length)`); got != "0" {
		t.Fatalf("a refused upload set %s files", got)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActUpload, Target: "css=#f", Files: []string{filepath.Join(root, "in.txt")}})
	if got := evalString(t, s, ctx, `document.getElementById('f').files[0].name`); got != "in.txt" {
		t.Fatalf("uploaded file name %q", got)
	}
}

// downloadNotices are a look's download notices.
func downloadNotices(snap *calls.Snapshot) []calls.Notice {
	var out []calls.Notice
	for _, n := range snap.Notices {
		if n.Kind == calls.NoticeDownload {
			out = append(out, n)
		}
	}
	return out
}

// lookUntil takes looks until one tells of the named download in the
// state, and returns that look; every look on the way may tell of it only
// as in progress. It fails the test after 20 s.
func lookUntil(t *testing.T, s *driver.Session, ctx context.Context, name, state string) *calls.Snapshot {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		for _, n := range downloadNotices(snap) {
			switch {
			case n.Detail["name"] == name && n.Detail["state"] == state:
				return snap
			case n.Detail["state"] != calls.DownloadInProgress:
				t.Fatalf("waiting for %s %s, a look told of %q", name, state, n.Message)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no look told of %s %s in 20 s; the last:\n%s", name, state, snap.Text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// listUntil lists the session's downloads until the named one is in the
// state. It fails the test after 20 s.
func listUntil(t *testing.T, s *driver.Session, ctx context.Context, name, state string) []calls.Download {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := s.Downloads(ctx)
		if err != nil {
			t.Fatalf("downloads: %v", err)
		}
		for _, d := range list.Downloads {
			if d.Name == name && d.State == state {
				return list.Downloads
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never %s in 20 s; the list: %+v", name, state, list.Downloads)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noDownloadNotice fails the test if a look tells of a download.
func noDownloadNotice(t *testing.T, s *driver.Session, ctx context.Context, why string) {
	t.Helper()
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	if n := downloadNotices(snap); len(n) != 0 || strings.Contains(snap.Text, "[download]") {
		t.Fatalf("%s, a look told of %+v:\n%s", why, n, snap.Text)
	}
}

func TestDownloadsOutsideActions(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := downloadServer(t)

	// A page's timer downloads a file after the open returned: the next
	// look that sees it ended tells of it, once.
	open(t, s, ctx, srv.URL+"/later?name=later.csv")
	snap := lookUntil(t, s, ctx, "later.csv", calls.DownloadCompleted)
	told := downloadNotices(snap)
	if len(told) != 1 {
		t.Fatalf("want one download notice, got %+v", told)
	}
	n := told[0]
	if p := n.Detail["path"]; filepath.Base(p) != "later.csv" || n.Detail["bytes"] != "10" {
		t.Fatalf("notice detail: %+v", n.Detail)
	}
	if data, err := os.ReadFile(n.Detail["path"]); err != nil || len(data) != 10 {
		t.Fatalf("the file %s: %d bytes, %v", n.Detail["path"], len(data), err)
	}
	line := "[download] later.csv downloaded (10 bytes) to " + n.Detail["path"] + "\n"
	if strings.Count(snap.Text, "[download]") != 1 || !strings.Contains(snap.Text, line) || !strings.HasPrefix(snap.Text, "[page] ") || !strings.Contains(snap.Text, `"Later"`) {
		t.Fatalf("look text:\n%s", snap.Text)
	}
	dir := filepath.Dir(n.Detail["path"])
	noDownloadNotice(t, s, ctx, "after it was told")

	// A refused one is told as refused.
	open(t, s, ctx, srv.URL+"/later?name=setup.exe")
	snap = lookUntil(t, s, ctx, "setup.exe", calls.DownloadRefused)
	if n := downloadNotices(snap)[0]; !strings.HasPrefix(n.Message, "setup.exe refused: files ending .exe are not allowed") || n.Detail["path"] != "" {
		t.Fatalf("refused notice: %+v", n)
	}
	noDownloadNotice(t, s, ctx, "after the refusal was told")

	// A look nobody sees (a replay's own check) leaves it for one that is.
	open(t, s, ctx, srv.URL+"/later?name=unseen.csv")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "unseen.csv")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("unseen.csv never landed")
		}
		time.Sleep(50 * time.Millisecond) // between polls of the folder
	}
	unseen, err := s.Snapshot(ctx, calls.SnapshotRequest{Unseen: true})
	if err != nil {
		t.Fatal(err)
	}
	if told := downloadNotices(unseen); len(told) != 0 || strings.Contains(unseen.Text, "[download]") {
		t.Fatalf("an unseen look told of downloads: %+v", told)
	}
	if told := downloadNotices(lookUntil(t, s, ctx, "unseen.csv", calls.DownloadCompleted)); len(told) != 1 {
		t.Fatalf("the seen look after it: %+v", told)
	}

	// A list tells of them too: a look after it does not.
	open(t, s, ctx, srv.URL+"/later?name=listed.csv")
	listUntil(t, s, ctx, "listed.csv", calls.DownloadCompleted)
	noDownloadNotice(t, s, ctx, "after a list showed listed.csv")

	// An action's outcome tells of its own download: no look repeats it.
	open(t, s, ctx, srv.URL+"/")
	d := oneDownload(t, act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#csv"}))
	if d.State != calls.DownloadCompleted || d.Name != "report.csv" {
		t.Fatalf("the click's download: %+v", d)
	}
	noDownloadNotice(t, s, ctx, "after the outcome reported report.csv")

	// The list holds them all, in the order they began.
	list, err := s.Downloads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range list.Downloads {
		got = append(got, d.Name+" "+d.State)
		if d.State == calls.DownloadCompleted && filepath.Dir(d.Path) != dir {
			t.Errorf("%s landed in %s, want %s", d.Name, d.Path, dir)
		}
		if d.State == calls.DownloadRefused && !strings.Contains(d.Reason, ".exe") {
			t.Errorf("refused %s for %q", d.Name, d.Reason)
		}
	}
	want := "later.csv completed|setup.exe refused|unseen.csv completed|listed.csv completed|report.csv completed"
	if strings.Join(got, "|") != want {
		t.Fatalf("downloads %q, want %q", got, want)
	}
}

// TestDownloadFloodIsCapped: a page that downloads in a loop, each file
// within the size limit, fills its session's folder only up to ten times
// that limit; the rest are refused and say why, and another session of the
// browser is told of none of them.
func TestDownloadFloodIsCapped(t *testing.T) {
	t.Parallel()
	const max = 64 << 10
	b, ctx := launchLimited(t, driver.Options{Downloads: driver.DownloadOptions{MaxBytes: max, Timeout: 20 * time.Second}})
	srv := serve(t, map[string]string{"/": `<title>Flood</title><script>
const blob = new Blob([new Uint8Array(60 << 10)], {type: 'text/csv'});
let i = 0;
setInterval(() => {
	const a = document.createElement('a');
	a.href = URL.createObjectURL(blob);
	a.download = 'f' + (i++) + '.csv';
	a.click();
}, 10);
</script>`, "/ok": `<title>OK</title><p>ok</p>`})
	other, err := b.Session(ctx, "bystander")
	if err != nil {
		t.Fatal(err)
	}
	open(t, other, ctx, srv.URL+"/ok")
	s, err := b.Session(ctx, "flood")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	var list *calls.DownloadList
	for deadline := time.Now().Add(30 * time.Second); ; {
		if list, err = s.Downloads(ctx); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range list.Downloads {
			if d.Path == "" && strings.Contains(d.Reason, "in all") {
				n++
			}
		}
		if n >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %d downloads, none was stopped for the session's total", len(list.Downloads))
		}
		time.Sleep(50 * time.Millisecond)
	}
	open(t, s, ctx, srv.URL+"/ok") // the loop ends
	var held int64
	dir := ""
	for _, d := range list.Downloads {
		if d.State == calls.DownloadCompleted {
			dir = filepath.Dir(d.Path)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			held += fi.Size()
		}
	}
	if held > 10*max {
		t.Errorf("the session's folder holds %d bytes in %d files, over %d", held, len(entries), 10*max)
	}
	if l, err := other.Downloads(ctx); err != nil || len(l.Downloads) != 0 {
		t.Errorf("the other session lists %+v, %v", l, err)
	}
}

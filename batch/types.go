package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/waymark-dev/waymark/replay"
)

// Spec is a batch: the routine, how its rows run, and how many there are.
type Spec struct {
	ID string `json:"id"`
	// Routine is the routine file (waymark.routine/1) every row runs.
	Routine json.RawMessage `json:"routine"`
	// Name is what people call the batch: the routine file's name.
	Name string `json:"name,omitempty"`
	// Key names the row field that identifies a row across batches; empty
	// means rows have no key and are never skipped.
	Key string `json:"key,omitempty"`
	// Retries is how many times a row stopped by the network, a timeout or
	// a crashed browser runs again.
	Retries int `json:"retries"`
	// Submits is replay's: "allow" presses approved submits (journaled
	// first), "ask" stops a row before one as needs-approval.
	Submits string `json:"submits"`
	// Approved says the person's CLI that submitted the batch asked the
	// approval authority (package approval) about the routine file and
	// it said the file's recorded approvals are a person's: a worker
	// presses them without asking (approval.Relayed) only then. A batch
	// submitted otherwise, or from a file changed since it was saved,
	// asks at each of them (with Submits "ask", the row stops
	// needs-approval).
	Approved bool `json:"approved,omitempty"`
	// SignIns are the sign-in routines the routine's api steps name
	// (relogin), by the name the recipe gives, bundled with their own
	// approvals (signin.go); nil when none is named.
	SignIns map[string]SignIn `json:"sign_ins,omitempty"`
	// KeepCookies keeps a warm session's cookies and storage from one row
	// to the next; by default each row starts with none.
	KeepCookies bool `json:"keep_cookies,omitempty"`
	// Hand acts with a person's pointer paths and typing pace, as a
	// replay does by default; off (the default here), rows run at the
	// browser's speed.
	Hand    bool      `json:"hand,omitempty"`
	Total   int       `json:"total"`
	Created time.Time `json:"created"`
}

// routineHash names the routine for the key index: rows done by the same
// routine file are the same work.
func (s *Spec) routineHash() string {
	h := sha256.Sum256(s.Routine)
	return hex.EncodeToString(h[:8])
}

// Row is one input row on the stream. Fields hold the values of the
// routine's variables; a secret is a reference ({"secret": "env:PW"}),
// never its value.
type Row struct {
	Batch  string                     `json:"batch"`
	N      int                        `json:"n"` // from 1, in input order
	Key    string                     `json:"key,omitempty"`
	Fields map[string]json.RawMessage `json:"fields"`
}

// Row statuses in a [Result].
const (
	StatusOK        = "ok"        // the routine ran to the end
	StatusFailed    = "failed"    // it stopped: see Cause
	StatusUncertain = "uncertain" // its worker died after pressing a submit; a person checks
	StatusSkipped   = "skipped"   // its key was done already
	StatusCanceled  = "canceled"  // the batch was canceled before it ran
	// StatusNeedsSecret (secrets.go): held until its secret is handed over.
)

// Causes a batch adds to replay's.
const (
	CauseNetwork = "network" // the page or a request could not load
	CauseTimeout = "timeout"
	CauseBrowser = "browser" // the browser or the tab crashed
	CauseWorker  = "worker"  // the worker died while the row ran, after a submit
	CauseInput   = "input"   // the row cannot run: a missing variable, an unreadable secret
	// CauseAuth: the site refused the row's session to an api step's
	// call (after signing in again, when its recipe names how); not
	// retried, as another try would be refused alike.
	CauseAuth = "auth"
)

// Result is one row's outcome, written once.
type Result struct {
	Batch   string `json:"batch"`
	N       int    `json:"n"`
	Key     string `json:"key,omitempty"`
	Status  string `json:"status"`
	Cause   string `json:"cause,omitempty"`
	Message string `json:"message,omitempty"`
	Hint    string `json:"hint,omitempty"`
	// Step is where the row stopped, or, for an uncertain row, the step
	// whose submit was pressed.
	Step     string                     `json:"step,omitempty"`
	Data     map[string]json.RawMessage `json:"data,omitempty"`
	Heals    []replay.Heal              `json:"heals,omitempty"`
	DurMS    int64                      `json:"dur_ms"`
	Attempts int                        `json:"attempts"`
	Worker   string                     `json:"worker,omitempty"`
	Browser  string                     `json:"browser,omitempty"` // the pool endpoint it ran in
	At       time.Time                  `json:"at"`
}

// Status is a batch's progress.
type Status struct {
	ID        string `json:"id"`
	Name      string `json:"name,omitempty"`
	State     string `json:"state"` // running, done, canceled
	Total     int    `json:"total"`
	Done      int    `json:"done"` // results written, every status
	OK        int    `json:"ok"`
	Failed    int    `json:"failed"`
	Uncertain int    `json:"uncertain"`
	Skipped   int    `json:"skipped"`
	Canceled  int    `json:"canceled"`
	// NeedsSecret counts rows held for a secret their worker could not
	// read; they are not done until `waymark batch resume`.
	NeedsSecret int       `json:"needs_secret,omitempty"`
	Created     time.Time `json:"created"`
	// RatePerMin counts rows finished (not skipped) a minute since the
	// batch was created.
	RatePerMin float64 `json:"rate_per_min"`
	// LeftMS is a guess at the time left from the rate; 0 when unknown.
	LeftMS int64 `json:"left_ms,omitempty"`
}

// Batch states.
const (
	StateRunning  = "running"
	StateDone     = "done"
	StateCanceled = "canceled"
	// StateNeedsSecret (secrets.go): every row is done or held for a secret.
)

// journal is what a worker writes before it presses an approved submit.
type journal struct {
	Attempt int       `json:"attempt"`
	Step    string    `json:"step"`
	Control string    `json:"control"` // the control pressed, in the outline's words
	Sends   string    `json:"sends,omitempty"`
	Worker  string    `json:"worker"`
	At      time.Time `json:"at"`
}

// doneMark is the key index's entry: the row's key finished in a batch.
type doneMark struct {
	Batch  string `json:"batch"`
	N      int    `json:"n"`
	Status string `json:"status"`
}

func keyHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}

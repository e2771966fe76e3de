package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// Approvals a person gives.
//
// A click or key that would send, pay, delete or confirm is not the
// agent's to approve: an agent that could send back the approval it was
// shown would approve itself. So the approval goes to the person, through
// MCP elicitation, when the client can ask (the tool's reply waits for
// their answer; on the 2026-07-28 protocol the client asks and calls
// again, with the answer and the request state this server gave). When
// the client cannot ask, [Options.Submits] decides: "ask" (the default)
// refuses with nothing pressed, "allow" lets the submit through, a
// person's choice made in the configuration. A question the person could
// not answer (the client answered it with an error, called again without
// the answer, or no answer came within pendingTTL) presses nothing and
// answers needs_approval, as a client that cannot ask gets: on every path
// that asks (a tool's step, a run's, a replay's, a sign-in's).
//
// The answer is bound to the request it was asked for: the request state
// names a pending approval this server holds (once, for a few minutes,
// for the same tool and arguments), never the approval itself; the
// driver then presses only if the page still matches it.

// Submits values of [Options.Submits].
const (
	SubmitsAsk   = "ask"
	SubmitsAllow = "allow"
)

// approvalInput is the id of the elicitation in a tool's input requests.
const approvalInput = "approval"

// pendingTTL bounds how long an asked approval waits for its answer.
const pendingTTL = 10 * time.Minute

// approver holds the approvals asked of the person and not yet answered,
// for one server.
type approver struct {
	submits string // SubmitsAsk or SubmitsAllow

	mu      sync.Mutex
	pending map[string]pending // by request state
}

type pending struct {
	approval calls.Approval
	tool     string
	args     string // the call's arguments, compact JSON
	at       time.Time
}

func newApprover(submits string) *approver {
	if submits != SubmitsAllow {
		submits = SubmitsAsk
	}
	return &approver{submits: submits, pending: map[string]pending{}}
}

// approverKey carries the server's approver in a call's context, for the
// tools added through [Options.Extra].
type approverKey struct{}

func approverFrom(ctx context.Context) *approver {
	if a, ok := ctx.Value(approverKey{}).(*approver); ok {
		return a
	}
	return newApprover(SubmitsAsk)
}

func withApprover(a *approver) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			return next(context.WithValue(ctx, approverKey{}, a), method, req)
		}
	}
}

// gate is how a tool does a step that may need approval: do does the step
// with approve (nil the first time) and allow (the server lets submits
// through). It returns do's result, or the tool result to answer with
// instead: the question for the person, or why nothing was pressed.
//
// On a failure, do's result comes back too, beside the tool error.
func gate[T any](ctx context.Context, r *sdk.CallToolRequest, do func(approve *calls.Approval, allow bool) (T, error)) (T, *sdk.CallToolResult) {
	var zero T
	ap := approverFrom(ctx)
	if r != nil && r.Params != nil && r.Params.RequestState != "" {
		a, res := ap.answered(r)
		if res != nil {
			return zero, res
		}
		v, err := do(a, false)
		if err != nil {
			return v, failure(err)
		}
		return v, nil
	}
	// "allow" is for a client that cannot ask: one that can always asks.
	allow := ap.submits == SubmitsAllow && !canElicit(r)
	v, err := do(nil, allow)
	if err == nil {
		return v, nil
	}
	a, ok := calls.ApprovalOf(err)
	switch {
	case !ok || allow:
		return v, failure(err)
	case !canElicit(r):
		return v, refused(err, a)
	case canAskNow(r):
		// Before 2026-07-28 the person is asked while the call waits.
		// The question is put here, not left to the SDK (which asks for
		// an input request on these protocols and calls the tool
		// again): a question the client fails to answer is then this
		// server's to answer, as needs_approval, where the SDK's
		// answer would be a JSON-RPC error.
		yes, res := askWithin(ctx, r, err, a)
		if res != nil {
			return v, res
		}
		v, err := do(yes, false)
		if err != nil {
			return v, failure(err)
		}
		return v, nil
	}
	return zero, ap.ask(r, a)
}

// askWithin puts a, which err (needs_approval) carries, to the person
// within the call: the approval to press with if they accept, or the tool
// result to answer with instead.
func askWithin(ctx context.Context, r *sdk.CallToolRequest, err error, a calls.Approval) (*calls.Approval, *sdk.CallToolResult) {
	res, qerr := elicit(ctx, r, question(a))
	if qerr != nil {
		if ctx.Err() != nil {
			return nil, failure(ctx.Err())
		}
		return nil, unanswered(withApproval(err.Error(), a), qerr)
	}
	return verdict(a, res)
}

// canElicit reports whether the client can ask its person: it declared
// elicitation (form mode, or no mode, which means form).
func canElicit(r *sdk.CallToolRequest) bool {
	if r == nil {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil
}

// withApproval is a tool error's message with what the approval it
// carries says to the person ([calls.Approval.Describe]), less the line
// the message says already (a needs_approval message begins with it).
func withApproval(msg string, a calls.Approval) string {
	if !strings.Contains(msg, a.Line()) {
		return msg + "\n" + a.Describe()
	}
	if d := a.Details(); d != "" {
		return msg + "\n" + d
	}
	return msg
}

// ask puts the approval to the person on the 2026-07-28 protocol: an
// input request the client answers by calling the tool again (on older
// ones gate asks within the call, [askWithin]).
func (ap *approver) ask(r *sdk.CallToolRequest, a calls.Approval) *sdk.CallToolResult {
	var b [16]byte
	_, _ = rand.Read(b[:])
	state := hex.EncodeToString(b[:])
	ap.mu.Lock()
	now := time.Now()
	for k, p := range ap.pending {
		if now.Sub(p.at) > pendingTTL {
			delete(ap.pending, k)
		}
	}
	ap.pending[state] = pending{approval: a, tool: r.Params.Name, args: compactJSON(r.Params.Arguments), at: now}
	ap.mu.Unlock()
	return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{approvalInput: question(a)}, RequestState: state}
}

// question is the elicitation that asks the person to approve a.
func question(a calls.Approval) *sdk.ElicitParams {
	return questionSaying("An agent asks to " + a.Describe() + "\nAllow it? (Accept presses it once, if the page is still as shown.)")
}

// questionSaying is an elicitation that asks the person to approve what
// message says: a form with no fields, answered by its action.
func questionSaying(message string) *sdk.ElicitParams {
	return &sdk.ElicitParams{Mode: "form", Message: message,
		RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}}
}

// answered takes the person's answer to an approval asked earlier: the
// approval to press with, or the tool result to answer with instead.
func (ap *approver) answered(r *sdk.CallToolRequest) (*calls.Approval, *sdk.CallToolResult) {
	ap.mu.Lock()
	p, ok := ap.pending[r.Params.RequestState]
	delete(ap.pending, r.Params.RequestState)
	ap.mu.Unlock()
	if !ok || time.Since(p.at) > pendingTTL || p.tool != r.Params.Name || p.args != compactJSON(r.Params.Arguments) {
		return nil, failure(calls.Errorf(calls.ErrBadInput, "call the tool again without a request state: the person is asked then",
			"that approval request is unknown, used or expired; nothing was pressed"))
	}
	res, _ := r.Params.InputResponses[approvalInput].(*sdk.ElicitResult)
	if res == nil {
		// The client called again without the person's answer: it could
		// not ask them, or they did not answer.
		return nil, unanswered(withApproval("no answer came to the approval question for "+p.approval.Line(), p.approval), nil)
	}
	return verdict(p.approval, res)
}

// verdict is the person's answer to the question that asked to approve
// a: the approval to press with, or the tool result to answer with
// instead.
func verdict(a calls.Approval, res *sdk.ElicitResult) (*calls.Approval, *sdk.CallToolResult) {
	if res.Action != "accept" {
		what := "declined"
		if res.Action == "cancel" {
			what = "dismissed"
		}
		return nil, failure(calls.Errorf(calls.ErrNeedsApproval, "do not press it another way: the person said no",
			"the person %s %s %s; nothing was pressed", what, a.Action, calls.ShownControl(a.Control)))
	}
	return &a, nil
}

// refused is the tool error when the person cannot be asked.
func refused(err error, a calls.Approval) *sdk.CallToolResult {
	msg := withApproval(err.Error(), a) +
		"\nIt needs the approval of a person, and this MCP client cannot ask one (it has no elicitation): nothing was pressed." +
		"\nhint: leave this step to the person, or a person can set [mcp] submits = \"allow\" in waymark.toml to let submits through" +
		"\ncode: needs_approval"
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// unansweredHint says what to do when the person was asked and no answer
// came: [mcp] submits = "allow" is no way round it (a client that can ask
// always asks).
const unansweredHint = "the person was not asked or could not answer: call the tool again to ask them again, or leave this step to the person"

// unanswered is the tool error when the person was asked and no answer
// came: msg says what was asked, qerr is how the question failed (nil:
// the client called again without an answer). Nothing was pressed, as
// when the client cannot ask.
func unanswered(msg string, qerr error) *sdk.CallToolResult {
	how := "the MCP client called again without their answer"
	if qerr != nil {
		how = "the MCP client answered the question with an error: " + qerr.Error()
	}
	msg += "\nIt needs the approval of a person, and the person could not answer (" + how + "): nothing was pressed." +
		"\nhint: " + unansweredHint +
		"\ncode: needs_approval"
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// compactJSON is a call's arguments in one form, keys sorted, so that the
// same arguments compare equal however they were spaced.
func compactJSON(raw json.RawMessage) string {
	var m any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return ""
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// canAskNow reports whether the person can be asked in the middle of a
// call, as a run or a replay needs (they cannot start again from where
// they asked): the client can elicit, and speaks a protocol before
// 2026-07-28, where the server may send it requests while a call runs; on
// later ones a call asks only by returning, and a run or replay goes by
// [Options.Submits].
func canAskNow(r *sdk.CallToolRequest) bool {
	if !canElicit(r) || r.Session == nil {
		return false
	}
	p := r.Session.InitializeParams()
	return p != nil && p.ProtocolVersion != "" && p.ProtocolVersion < "2026-07-28"
}

// askNow asks the person, within the call, to approve what message says
// (a run's or a replay's step). A question that fails is a needs_approval
// error, as the person's no would be, not the client's error: nothing is
// pressed, and the front says why. A canceled call stays canceled.
func askNow(ctx context.Context, r *sdk.CallToolRequest, message string) (bool, error) {
	res, err := elicit(ctx, r, questionSaying(message))
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, calls.Errorf(calls.ErrNeedsApproval, unansweredHint,
			"the person could not answer the approval question (the MCP client answered it with an error: %v)", err)
	}
	return res.Action == "accept", nil
}

// elicit puts q to the client's person within the call, waiting no longer
// for the answer than an approval asked by returning waits (pendingTTL):
// a client that never answers does not hold the call for ever.
func elicit(ctx context.Context, r *sdk.CallToolRequest, q *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, pendingTTL, errNoAnswer)
	defer cancel()
	res, err := r.Session.Elicit(ctx, q)
	if err != nil && errors.Is(context.Cause(ctx), errNoAnswer) {
		return nil, errNoAnswer
	}
	return res, err
}

// errNoAnswer is a question no answer came to within pendingTTL.
var errNoAnswer = errors.New("no answer within " + pendingTTL.String())

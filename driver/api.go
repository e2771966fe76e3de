package driver

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/siteapi"
)

// CallAPI calls a site's API by a recipe (calls.MethodAPICall) from the
// session's current tab, through Fetch: each hop checked by the policy
// as any in-tab call is, and by the read gate (siteapi/gate.go): a
// request that is not a read stops with needs_approval, nothing sent.
// The approval is bound here, like a submit's, to the tab's page load and
// used once. The session keeps the hosts backed off after a 429 for its
// next calls. What it returns is masked by the session's secrets.
func (s *Session) CallAPI(ctx context.Context, req calls.APICallRequest) (reply *calls.APICallResult, err error) {
	defer s.masked(&reply, &err)
	r, err := siteapi.Parse(req.Recipe)
	if err != nil {
		return nil, err
	}
	opts := siteapi.CallOptions{Vars: req.Vars, Pages: req.Pages, Fresh: req.Fresh,
		Timeout: time.Duration(req.TimeoutMS) * time.Millisecond, Backoff: &s.apiBackoff}
	if a := req.Approve; a != nil {
		t := s.currentTab()
		if t == nil {
			return nil, needsApprovalAgain("no tab holds the approval's page; nothing was sent")
		}
		if err := t.approvalFresh(*a); err != nil {
			return nil, err
		}
		if a.Action != siteapi.ApprovalAction || a.Sends == "" {
			return nil, needsApprovalAgain("the approval is not of an API call; nothing was sent")
		}
		t.useApproval(*a)
		opts.Approved = a.Sends
	}
	res, err := siteapi.Call(ctx, s, r, opts)
	if err != nil {
		return nil, s.bindAPIApproval(err)
	}
	return res, nil
}

// bindAPIApproval gives the approval a held API call carries its token:
// the current tab's page load, as a submit's.
func (s *Session) bindAPIApproval(err error) error {
	var e *calls.Error
	if !errors.Is(err, calls.ErrNeedsApproval) || !errors.As(err, &e) || len(e.Data) == 0 {
		return err
	}
	var a calls.Approval
	t := s.currentTab()
	if t == nil || json.Unmarshal(e.Data, &a) != nil || a.Action != siteapi.ApprovalAction {
		return err
	}
	a = t.bind(a)
	data, _ := json.Marshal(a)
	cp := *e
	cp.Data = data
	return &cp
}

package driver

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/siteapi"
)

// CallAPI calls a site's API by a recipe (calls.MethodAPICall) from the
// session's current tab, through Fetch: each hop checked by the policy
// as any in-tab call is. The session keeps the hosts backed off after a
// 429 for its next calls.
func (s *Session) CallAPI(ctx context.Context, req calls.APICallRequest) (reply *calls.APICallResult, err error) {
	defer s.masked(&reply, &err)
	r, err := siteapi.Parse(req.Recipe)
	if err != nil {
		return nil, err
	}
	res, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{Vars: req.Vars, Pages: req.Pages, Fresh: req.Fresh,
		Timeout: time.Duration(req.TimeoutMS) * time.Millisecond, Backoff: &s.apiBackoff})
	if err != nil {
		return nil, err
	}
	out := &calls.APICallResult{Rows: res.Rows, Unchanged: res.Unchanged, Pages: res.Pages, Requests: res.Requests,
		Bytes: res.Bytes, Ended: res.Ended, WaitedMS: res.WaitedMS}
	if v := res.Validators; v != nil {
		out.ETag, out.LastModified = v.ETag, v.LastModified
	}
	return out, nil
}

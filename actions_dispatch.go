package forgejo

import (
	"context"
	"strings"
	"time"
)

// This file dispatches a workflow and returns the run it started. Every
// supported Forgejo release answers the dispatch with the run when asked
// (return_run_info: 201 and {id, run_number, jobs}); Gitea, and Forgejo
// before 11.0, answer 204 with no body, and then the run is found in the
// repository's listing by the rule RunWorkflow documents.

// How RunWorkflow looks for a run the dispatch answer did not name: the
// number of listings read, the wait before the first and its growth, and
// how far before the dispatch (on the client's clock) a run's creation
// time may lie, for the skew between the client's and the server's clocks.
const (
	findRunAttempts  = 5
	findRunFirstWait = 500 * time.Millisecond
	findRunSkew      = time.Minute
)

// RunWorkflow dispatches a workflow (a file of .forgejo/workflows or
// .gitea/workflows, such as "build.yml") on body.Ref and returns the run it started. It asks for the
// run in the answer (body.ReturnRunInfo is set whatever the caller put
// there), and reads the whole run with [ActionsService.GetRun] when the
// server names it, as every supported Forgejo release does.
//
// Where the answer does not name the run (Gitea, and Forgejo before 11.0,
// answer 204 with no body), RunWorkflow finds it in the repository's runs
// ([ActionsService.ListRuns], the newest first): the newest run that was
// started by workflow_dispatch, of that workflow, on that ref, created no
// earlier than a minute before the dispatch on the client's clock. Each of
// these tests applies where the server reports the field: Gitea's listing
// gives no creation time and names the workflow and the ref together in
// Path ("ci.yml@refs/heads/main"), which is held to both. The listing is read up to 5
// times, waiting 0.5s, 1s, 2s and 4s between reads (on the client's
// [Clock]); when no run matches, the error is a [*RunNotFoundError]. The
// dispatch itself is never repeated.
//
// When the dispatch succeeded but reading the run failed, the run returned
// holds what the dispatch answered (ID and IndexInRepo) together with the
// error; the *Response is the dispatch's.
func (s *ActionsService) RunWorkflow(ctx context.Context, owner, repo, workflow string, body DispatchWorkflowRequest, opts ...RequestOption) (*ActionRun, *Response, error) {
	body.ReturnRunInfo = true
	start := s.client.now()
	info, resp, err := s.DispatchWorkflow(ctx, owner, repo, workflow, body, opts...)
	if err != nil {
		return nil, resp, err
	}
	if info != nil && info.ID > 0 {
		run, _, err := s.GetRun(ctx, owner, repo, info.ID, withKnownRelease(opts)...)
		if err != nil {
			return &ActionRun{ID: info.ID, IndexInRepo: info.RunNumber, WorkflowID: workflow}, resp, err
		}
		return run, resp, nil
	}
	run, err := s.findDispatchedRun(ctx, owner, repo, workflow, body.Ref, start.Add(-findRunSkew), withKnownRelease(opts))
	return run, resp, err
}

// findDispatchedRun applies RunWorkflow's rule to the listing, reading it
// up to findRunAttempts times.
func (s *ActionsService) findDispatchedRun(ctx context.Context, owner, repo, workflow, ref string, notBefore time.Time, opts []RequestOption) (*ActionRun, error) {
	params := &ActionListRunsOptions{Event: []string{"workflow_dispatch"}, WorkflowID: workflow}
	wait := findRunFirstWait
	for attempt := 1; ; attempt++ {
		list, _, err := s.ListRuns(ctx, owner, repo, params, opts...)
		if err != nil {
			return nil, err
		}
		var best *ActionRun
		for _, r := range list.WorkflowRuns {
			if dispatchedRunMatches(r, workflow, ref, notBefore) && (best == nil || r.ID > best.ID) {
				best = r
			}
		}
		if best != nil {
			return best, nil
		}
		if attempt == findRunAttempts {
			return nil, &RunNotFoundError{Owner: owner, Repo: repo, Workflow: workflow, Ref: ref, Attempts: attempt}
		}
		if err := s.client.sleep(ctx, wait); err != nil {
			return nil, err
		}
		wait *= 2
	}
}

// dispatchedRunMatches is RunWorkflow's rule for one listed run; a field
// the server left empty does not count against it.
func dispatchedRunMatches(r *ActionRun, workflow, ref string, notBefore time.Time) bool {
	if r == nil {
		return false
	}
	if ev := r.EventName(); ev != "" && ev != "workflow_dispatch" {
		return false
	}
	if r.WorkflowID != "" && r.WorkflowID != workflow {
		return false
	}
	if r.Prettyref != "" && shortRef(r.Prettyref) != shortRef(ref) {
		return false
	}
	if wf, wref, ok := workflowPath(r.Path); ok && (wf != workflow || shortRef(wref) != shortRef(ref)) {
		return false
	}
	return r.Created.IsZero() || !r.Created.Before(notBefore)
}

// shortRef is a ref without its refs/heads/ or refs/tags/ prefix, as
// Forgejo shows it in a run's prettyref.
func shortRef(ref string) string {
	ref = strings.TrimSpace(ref)
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if s, ok := strings.CutPrefix(ref, p); ok {
			return s
		}
	}
	return ref
}

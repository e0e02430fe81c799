package forgejo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// What Forgejo's next release is announced to send, and what 16.0 already
// sends, in hand-made bodies: started and stopped null while unset, and
// skipped as a run's and a job's status. Both decode, and the helpers read
// skipped as the end of a run.
func TestActionsDecodeNextRelease(t *testing.T) {
	const run = `{"id":42,"index_in_repo":3,"status":"skipped","event":"","trigger_event":"workflow_dispatch",
		"workflow_id":"ci.yml","prettyref":"main","created":"2026-12-01T10:00:00Z","updated":"2026-12-01T10:00:05Z",
		"started":null,"stopped":null,"duration":0,"repository":null,"trigger_user":null}`
	const jobs = `[{"id":7,"run_id":42,"name":"lint","status":"skipped","needs":null,"runs_on":["docker"],"task_id":0,"attempt":0}]`
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/repos/o/r/actions/runs/42":
			_, _ = w.Write([]byte(run))
		case "/api/v1/repos/o/r/actions/runs/42/jobs":
			_, _ = w.Write([]byte(jobs))
		case "/api/v1/repos/o/r/actions/runs":
			_, _ = w.Write([]byte(`{"total_count":1,"workflow_runs":[` + run + `]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer ts.Close()
	c, err := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithToken("t0ken"), forgejo.WithClock(newStepClock()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, _, err := c.Actions.GetRun(ctx, "o", "r", 42)
	if err != nil || got.Status != forgejo.ActionStatusSkipped || !got.Started.IsZero() || !got.Stopped.IsZero() || got.EventName() != "workflow_dispatch" {
		t.Fatalf("run = %+v, %v", got, err)
	}
	list, _, err := c.Actions.ListRuns(ctx, "o", "r", nil)
	if err != nil || len(list.WorkflowRuns) != 1 || list.WorkflowRuns[0].Status != forgejo.ActionStatusSkipped {
		t.Fatalf("runs = %+v, %v", list, err)
	}
	js, _, err := c.Actions.ListRunJobs(ctx, "o", "r", 42)
	if err != nil || len(js) != 1 || js[0].Status != forgejo.ActionStatusSkipped {
		t.Fatalf("jobs = %+v, %v", js, err)
	}
	// A skipped run has ended: the waits return it at the first poll.
	if r, err := c.Actions.WaitRun(ctx, "o", "r", 42, nil); err != nil || r.Status != forgejo.ActionStatusSkipped {
		t.Fatalf("WaitRun = %+v, %v", r, err)
	}
	if j, err := c.Actions.WaitJob(ctx, "o", "r", 42, 7, nil); err != nil || j.Status != forgejo.ActionStatusSkipped {
		t.Fatalf("WaitJob = %+v, %v", j, err)
	}
}

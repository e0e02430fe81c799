package forgejo_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// An artifact found by name and streamed to a writer, byte for byte; a
// name the run lacks is ErrNotFound.
func TestDownloadArtifactTo(t *testing.T) {
	f := newActionsFixture(t)
	run, _ := f.dispatch(t)
	data := bytes.Repeat([]byte("PK\x03\x04 binary \x00\xff"), 10000)
	f.srv.AddActionArtifact(f.owner, f.repo, run.ID, "dist", data)
	f.srv.AddActionArtifact(f.owner, f.repo, run.ID, "dist-extra", []byte("other"))
	ctx := context.Background()
	a, err := f.c.Actions.FindRunArtifact(ctx, f.owner, f.repo, run.ID, "dist")
	if err != nil || a.Name != "dist" || a.SizeInBytes != int64(len(data)) {
		t.Fatalf("artifact = %+v, %v", a, err)
	}
	var out bytes.Buffer
	n, resp, err := f.c.Actions.DownloadArtifactTo(ctx, f.owner, f.repo, a.ID, &out)
	if err != nil || n != int64(len(data)) || resp.StatusCode != http.StatusOK || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("downloaded %d bytes (status %d), %v", n, resp.StatusCode, err)
	}
	if _, err := f.c.Actions.FindRunArtifact(ctx, f.owner, f.repo, run.ID, "docs"); !errors.Is(err, forgejo.ErrNotFound) {
		t.Fatalf("missing name: %v, want ErrNotFound", err)
	}
	// A download cut midway is a *TransportError after the bytes before it.
	f.srv.Inject(forgejotest.Fault{Operation: "DownloadActionArtifact", TruncateBody: true})
	out.Reset()
	n, _, err = f.c.Actions.DownloadArtifactTo(ctx, f.owner, f.repo, a.ID, &out)
	var te *forgejo.TransportError
	if !errors.As(err, &te) || n != int64(out.Len()) || n >= int64(len(data)) || !bytes.Equal(out.Bytes(), data[:n]) {
		t.Fatalf("cut download: %d bytes, %v", n, err)
	}
	// The download bound holds.
	small := f.srv.Client(forgejo.WithClock(f.clk), forgejo.WithMaxDownloadBytes(1000))
	_, _, err = small.Actions.DownloadArtifactTo(ctx, f.owner, f.repo, a.ID, &out)
	if !errors.As(err, &te) || te.Kind != forgejo.TransportResponseTooLarge {
		t.Fatalf("past the bound: %v", err)
	}
}

// Forgejo 15 LTS lacks the jobs, job log, artifact, cancel and delete
// routes (404 "404 page not found"; 405 for the deletion, whose path it
// serves for GET). Each helper fails at once with an
// *UnsupportedOperationError naming 16.0, the router's answer inside,
// without WithVersionCheck; once the client knows the release, before
// sending anything.
func TestActionsHelpersOnForgejo15(t *testing.T) {
	f := newActionsFixture(t, forgejotest.WithRelease("15"))
	ctx := context.Background()
	run, _, err := f.c.Actions.RunWorkflow(ctx, f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil || run.ID == 0 {
		t.Fatalf("dispatch on 15: %+v, %v", run, err)
	}
	var out bytes.Buffer
	helpers := map[string]struct {
		op   string
		call func() error
	}{
		"WaitJob": {"ListActionRunJobs", func() error {
			_, err := f.c.Actions.WaitJob(ctx, f.owner, f.repo, run.ID, 1, nil)
			return err
		}},
		"FollowJobLog": {"ListActionRunJobs", func() error {
			_, err := f.c.Actions.FollowJobLog(ctx, f.owner, f.repo, run.ID, 1, &out, nil)
			return err
		}},
		"DownloadArtifactTo": {"DownloadActionArtifact", func() error {
			_, _, err := f.c.Actions.DownloadArtifactTo(ctx, f.owner, f.repo, 1, &out)
			return err
		}},
		"FindRunArtifact": {"ListActionRunArtifacts", func() error {
			_, err := f.c.Actions.FindRunArtifact(ctx, f.owner, f.repo, run.ID, "dist")
			return err
		}},
		"CancelRun": {"CancelActionRun", func() error {
			_, err := f.c.Actions.CancelRun(ctx, f.owner, f.repo, run.ID)
			return err
		}},
		"DeleteRun": {"DeleteActionRun", func() error {
			_, err := f.c.Actions.DeleteRun(ctx, f.owner, f.repo, run.ID)
			return err
		}},
	}
	for name, h := range helpers {
		f.srv.ResetRequests()
		err := h.call()
		var ue *forgejo.UnsupportedOperationError
		if !errors.As(err, &ue) || ue.Since != "16.0" || ue.Operation != h.op || ue.API == nil || !strings.Contains(err.Error(), "Forgejo 16.0 and later") {
			t.Fatalf("%s on 15: %v, want *UnsupportedOperationError for %s since 16.0 with the router's answer", name, err, h.op)
		}
		if st := forgejo.StatusCode(err); st != http.StatusNotFound && st != http.StatusMethodNotAllowed {
			t.Fatalf("%s: status %d through the error", name, st)
		}
		if n := f.srv.Count(h.op); n != 1 {
			t.Fatalf("%s sent %s %d times, want once: it must fail at once", name, h.op, n)
		}
	}
	// WaitRun reads what 15 serves; OnUpdate gets no jobs there.
	var jobsSeen [][]*forgejo.ActionRunJob
	_, err = f.c.Actions.WaitRun(ctx, f.owner, f.repo, run.ID, &forgejo.WaitRunOptions{QueueLimit: 5 * time.Second,
		OnUpdate: func(_ *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) { jobsSeen = append(jobsSeen, jobs) }})
	if !errors.Is(err, forgejo.ErrRunQueued) || len(jobsSeen) != 1 || jobsSeen[0] != nil {
		t.Fatalf("WaitRun on 15: %v, updates %v", err, jobsSeen)
	}

	// Once the client knows the release (Serves asks /version once), the
	// helpers refuse before sending, version check or not.
	if served, err := f.c.Serves(ctx, "ListActionRunJobs"); err != nil || served {
		t.Fatalf("Serves = %v, %v", served, err)
	}
	for name, h := range helpers {
		if name == "CancelRun" || name == "DeleteRun" {
			continue // generated methods: sent unless WithVersionCheck
		}
		f.srv.ResetRequests()
		err := h.call()
		var ue *forgejo.UnsupportedOperationError
		if !errors.As(err, &ue) || ue.API != nil || ue.ServerVersion != "15.0.3+gitea-1.22.0" || ue.Since != "16.0" {
			t.Fatalf("%s on a known 15: %v", name, err)
		}
		if n := f.srv.Count(h.op); n != 0 {
			t.Fatalf("%s sent %s %d times on a release known to lack it", name, h.op, n)
		}
	}
}

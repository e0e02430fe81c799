package forgejo_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// logServer is a hostile job-log server, as Forgejo 16 serves a growing
// log: Range from an offset (206 with Content-Range; 416 when nothing lies
// past it), or, with ignoreRange, the whole log every time (200). It cuts
// the connection midway through a body at each offset of cuts (once each),
// after flushing what came before, and counts every body byte it wrote.
// The jobs route reports the job running until done; each poll of it runs
// grow first, which plays the runner.
type logServer struct {
	t           testing.TB
	mu          sync.Mutex
	log         []byte
	done        bool
	ignoreRange bool
	cuts        []int
	served      int64
	ranges      []int64 // the offset each log request asked for
	statuses    []int
	polls       int
	grow        func(poll int) // under mu
}

func (s *logServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, "/api/v1/repos/o/r/actions/runs/1/jobs"):
		s.mu.Lock()
		s.polls++
		if s.grow != nil {
			s.grow(s.polls)
		}
		status := "running"
		if s.done {
			status = "success"
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"id":7,"run_id":1,"name":"build","status":%q,"task_id":70}]`, status)
	case strings.HasSuffix(r.URL.Path, "/api/v1/repos/o/r/actions/jobs/7/logs"):
		s.serveLog(w, r)
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "404 page not found\n")
	}
}

func (s *logServer) serveLog(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	log := s.log
	from := int64(0)
	if v, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok {
		n, err := strconv.ParseInt(strings.TrimSuffix(v, "-"), 10, 64)
		if err != nil {
			s.mu.Unlock()
			s.t.Errorf("Range %q", r.Header.Get("Range"))
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		from = n
	}
	s.ranges = append(s.ranges, from)
	status := http.StatusPartialContent
	switch {
	case s.ignoreRange:
		from, status = 0, http.StatusOK
	case from >= int64(len(log)):
		status = http.StatusRequestedRangeNotSatisfiable
	}
	s.statuses = append(s.statuses, status)
	cut := -1
	for i, c := range s.cuts {
		if int64(c) > from && c < len(log) {
			cut = c
			s.cuts = append(s.cuts[:i:i], s.cuts[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	switch status {
	case http.StatusRequestedRangeNotSatisfiable:
		h.Set("Content-Range", "bytes */"+strconv.Itoa(len(log)))
		w.WriteHeader(status)
		return
	case http.StatusPartialContent:
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(log)-1, len(log)))
	}
	h.Set("Content-Length", strconv.FormatInt(int64(len(log))-from, 10))
	w.WriteHeader(status)
	body := log[from:]
	if cut >= 0 {
		body = log[from:cut]
	}
	n, _ := w.Write(body)
	s.mu.Lock()
	s.served += int64(n)
	s.mu.Unlock()
	if cut >= 0 {
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops midway
	}
}

func newLogClient(t testing.TB, ls *logServer, clk forgejo.Clock) *forgejo.Client {
	ts := httptest.NewServer(ls)
	t.Cleanup(ts.Close)
	c, err := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithToken("t0ken"), forgejo.WithClock(clk),
		forgejo.WithRetryPolicy(forgejotest.FastRetry))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// growingLog returns a log of lines of varied length, chunked as a
// runner appends it: chunks[i] is what the i-th append adds.
func growingLog(seed uint64, chunks, linesPerChunk int) [][]byte {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([][]byte, chunks)
	line := 0
	for i := range out {
		var b bytes.Buffer
		for range linesPerChunk {
			line++
			fmt.Fprintf(&b, "%05d %s\n", line, strings.Repeat("x", r.IntN(200)))
		}
		out[i] = b.Bytes()
	}
	return out
}

// A log followed as it grows, across connections cut midway through a body,
// served with Range: every byte arrives once, in order (none lost, none
// repeated), each request asks from the last byte written, and the server
// serves each byte once.
func TestFollowJobLogAcrossCutConnections(t *testing.T) {
	chunks := growingLog(1, 12, 40)
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	ls := &logServer{t: t}
	// Cuts: inside the first chunk, inside later ones, several in one body.
	ls.cuts = []int{100, len(chunks[0]) + 7, total / 2, total/2 + 1, total - 3}
	ls.grow = func(poll int) {
		if poll <= len(chunks) {
			ls.log = append(ls.log, chunks[poll-1]...)
		}
		ls.done = poll >= len(chunks)+2
	}
	ls.log = append(ls.log, []byte("start\n")...)
	var want bytes.Buffer
	want.WriteString("start\n")
	for _, c := range chunks {
		want.Write(c)
	}
	clk := newStepClock()
	c := newLogClient(t, ls, clk)
	var out bytes.Buffer
	job, err := c.Actions.FollowJobLog(context.Background(), "o", "r", 1, 7, &out, &forgejo.FollowLogOptions{Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if job == nil || job.Status != forgejo.ActionStatusSuccess {
		t.Fatalf("job = %+v", job)
	}
	if !bytes.Equal(out.Bytes(), want.Bytes()) {
		t.Fatalf("wrote %d bytes, want the log's %d (first difference at %d)", out.Len(), want.Len(), firstDiff(out.Bytes(), want.Bytes()))
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.served != int64(want.Len()) {
		t.Fatalf("served %d bytes for a log of %d: a byte was asked for twice", ls.served, want.Len())
	}
	if len(ls.cuts) != 0 {
		t.Fatalf("cuts not reached: %v", ls.cuts)
	}
	for i := 1; i < len(ls.ranges); i++ {
		if ls.ranges[i] < ls.ranges[i-1] {
			t.Fatalf("offsets went back: %v", ls.ranges)
		}
	}
	if !containsInt(ls.statuses, http.StatusRequestedRangeNotSatisfiable) {
		t.Fatalf("no 416 seen (statuses %v): the end of the log was not exercised", ls.statuses)
	}
}

// A server that ignores Range (200 with the whole log every time): what
// was already written is read past, never written again; cuts still lose
// nothing.
func TestFollowJobLogServerIgnoresRange(t *testing.T) {
	chunks := growingLog(2, 5, 30)
	ls := &logServer{t: t, ignoreRange: true}
	ls.cuts = []int{50, len(chunks[0]) + len(chunks[1])/2}
	ls.grow = func(poll int) {
		if poll <= len(chunks) {
			ls.log = append(ls.log, chunks[poll-1]...)
		}
		ls.done = poll > len(chunks)
	}
	var out bytes.Buffer
	_, err := newLogClient(t, ls, newStepClock()).Actions.FollowJobLog(context.Background(), "o", "r", 1, 7, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Join(chunks, nil); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("wrote %d bytes, want %d (first difference at %d)", out.Len(), len(want), firstDiff(out.Bytes(), want))
	}
}

// The follow ends only after a read that follows the job's end brought
// nothing new: lines written between the last read and the end arrive.
func TestFollowJobLogReadsAfterTheEnd(t *testing.T) {
	ls := &logServer{t: t, log: []byte("a\n")}
	ls.grow = func(poll int) {
		if poll == 2 {
			ls.log = append(ls.log, "last line\n"...)
			ls.done = true
		}
	}
	var out bytes.Buffer
	if _, err := newLogClient(t, ls, newStepClock()).Actions.FollowJobLog(context.Background(), "o", "r", 1, 7, &out, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != "a\nlast line\n" {
		t.Fatalf("wrote %q", out.String())
	}
}

// Step N is asked for with ?step=N; a write error of w ends the follow with
// that error.
func TestFollowJobLogStepAndWriteError(t *testing.T) {
	ls := &logServer{t: t, log: []byte("step two output\n")}
	var steps []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/logs") {
			steps = append(steps, r.URL.Query().Get("step"))
		}
		ls.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c, _ := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithToken("t0ken"), forgejo.WithClock(newStepClock()))
	boom := errors.New("disk full")
	_, err := c.Actions.FollowJobLog(context.Background(), "o", "r", 1, 7, failingWriter{boom}, &forgejo.FollowLogOptions{Step: 2})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the writer's", err)
	}
	if len(steps) != 1 || steps[0] != "2" {
		t.Fatalf("step parameters %q", steps)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write(p []byte) (int, error) { return 0, w.err }

// The caller's context ends the follow with its error.
func TestFollowJobLogContext(t *testing.T) {
	ls := &logServer{t: t, log: []byte("x\n")}
	clk := newStepClock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk.hook = func(time.Time, int) { cancel() }
	var out bytes.Buffer
	_, err := newLogClient(t, ls, clk).Actions.FollowJobLog(ctx, "o", "r", 1, 7, &out, nil)
	if !errors.Is(err, context.Canceled) || out.String() != "x\n" {
		t.Fatalf("err = %v, wrote %q", err, out.String())
	}
}

// Against the fake: a job not started yet has no log (404 "job is not
// started"), then a runner writes it; a connection cut midway (the fault
// TruncateBody) loses and repeats nothing.
func TestFollowJobLogOnTheFake(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	lines := []string{"Set up job\n", "go test ./...\n", strings.Repeat("ok  \tpkg\t0.1s\n", 50), "Job succeeded\n"}
	log := ""
	f.clk.hook = func(now time.Time, n int) {
		switch {
		case n <= 2: // waiting: no log yet
		case n-3 < len(lines):
			log += lines[n-3]
			status := "running"
			if n-3 == len(lines)-1 {
				status = "success"
			}
			if n == 4 {
				f.srv.Inject(forgejotest.Fault{Operation: "repoGetActionJobLogs", TruncateBody: true})
			}
			f.srv.RunActionJob(f.owner, f.repo, job.ID, status, log)
		}
	}
	var out bytes.Buffer
	got, err := f.c.Actions.FollowJobLog(context.Background(), f.owner, f.repo, run.ID, job.ID, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != forgejo.ActionStatusSuccess || out.String() != log {
		t.Fatalf("job %s; wrote %q, want %q", got.Status, out.String(), log)
	}
	if f.srv.PendingFaults() != 0 {
		t.Fatal("the cut was never made")
	}
}

// A job run again while its log is followed: the follow stays on the
// attempt it started with, delivers that attempt's log whole and nothing
// of the next, and says the job was run again; following again delivers
// the new attempt from its first byte. An attempt chosen by the caller is
// followed to its end without that error.
func TestFollowJobLogAcrossARerun(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	first := "attempt 1: set up\n"
	f.srv.RunActionJob(f.owner, f.repo, job.ID, "running", first)
	f.clk.hook = func(now time.Time, n int) {
		if n == 2 {
			// Attempt 1 writes its last line and fails; the job is run
			// again at once and attempt 2 writes more than attempt 1 did.
			first += "attempt 1: tests failed\n"
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "failure", first)
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "running", strings.Repeat("attempt 2: a longer log\n", 4))
		}
	}
	var out bytes.Buffer
	got, err := f.c.Actions.FollowJobLog(context.Background(), f.owner, f.repo, run.ID, job.ID, &out, nil)
	var re *forgejo.JobRerunError
	if !errors.As(err, &re) || !errors.Is(err, forgejo.ErrJobRerun) || re.Attempt != 1 || re.Job == nil || re.Job.Attempt != 2 || got != re.Job {
		t.Fatalf("follow across a rerun: job %+v, err %v", got, err)
	}
	if out.String() != first {
		t.Fatalf("wrote %q, want attempt 1's log %q", out.String(), first)
	}
	if !strings.Contains(err.Error(), "attempt 2") || !strings.Contains(err.Error(), "attempt 1") {
		t.Fatalf("message %q names neither attempt", err)
	}

	second := strings.Repeat("attempt 2: a longer log\n", 4)
	base := len(f.clk.slept())
	f.clk.hook = func(now time.Time, n int) {
		if n == base+1 {
			second += "attempt 2: passed\n"
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "success", second)
		}
	}
	out.Reset()
	got, err = f.c.Actions.FollowJobLog(context.Background(), f.owner, f.repo, run.ID, job.ID, &out, nil)
	if err != nil || got.Status != forgejo.ActionStatusSuccess || got.Attempt != 2 || out.String() != second {
		t.Fatalf("following attempt 2: job %+v, err %v, wrote %q", got, err, out.String())
	}

	f.clk.hook = nil
	out.Reset()
	got, err = f.c.Actions.FollowJobLog(context.Background(), f.owner, f.repo, run.ID, job.ID, &out, &forgejo.FollowLogOptions{Attempt: 1})
	if err != nil || got.Attempt != 2 || out.String() != first {
		t.Fatalf("attempt 1 chosen: job %+v, err %v, wrote %q", got, err, out.String())
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// countingWriter counts what it is given and keeps nothing.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkFollowJobLog follows a log that grows to size in ten appends,
// the job ending after the last: memory per follow stays the same whatever
// the size (B/op and allocs/op of the 5 MB and 50 MB cases agree), and the
// server serves each byte once (reread-bytes/op is 0).
func BenchmarkFollowJobLog(b *testing.B) {
	for _, size := range []int{5 << 20, 50 << 20} {
		b.Run(strconv.Itoa(size>>20)+"MB", func(b *testing.B) {
			line := []byte("0123456789 a log line of a busy job, as a runner writes it\n")
			full := bytes.Repeat(line, size/len(line)+1)[:size]
			ls := &logServer{t: b}
			c := newLogClient(b, ls, newStepClock())
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var reread int64
			for b.Loop() {
				ls.mu.Lock()
				ls.log, ls.done, ls.served, ls.polls, ls.ranges, ls.statuses = nil, false, 0, 0, ls.ranges[:0], ls.statuses[:0]
				ls.grow = func(poll int) {
					if poll <= 10 {
						ls.log = full[:size*poll/10]
					}
					ls.done = poll >= 10
				}
				ls.mu.Unlock()
				var w countingWriter
				if _, err := c.Actions.FollowJobLog(context.Background(), "o", "r", 1, 7, &w, nil); err != nil {
					b.Fatal(err)
				}
				if w.n != int64(size) {
					b.Fatalf("delivered %d bytes of %d", w.n, size)
				}
				ls.mu.Lock()
				reread += ls.served - w.n
				ls.mu.Unlock()
			}
			b.ReportMetric(float64(reread)/float64(b.N), "reread-bytes/op")
		})
	}
}

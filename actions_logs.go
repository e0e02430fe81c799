package forgejo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// This file follows a job's log as it grows. The log is plain text that
// Forgejo 16 serves with Range (206 from an offset, 416 when nothing lies
// past it): each read asks for the bytes after the last one written, so a
// byte is delivered once, and a read cut off midway resumes where it
// stopped. A server that ignores Range (200, the whole log) is read past
// what was already delivered. Memory is one fixed buffer, whatever the
// log's size.

// FollowLogOptions tunes [ActionsService.FollowJobLog]. The zero value (or
// nil) follows the whole log with the default intervals.
type FollowLogOptions struct {
	// Step, when above zero, follows only that step's log (?step=N,
	// Forgejo 16.0 and later; a server without it sends the whole log).
	Step int
	// Attempt, when above zero, follows that attempt of the job
	// (?attempt=N, as the job listing numbers them from 1); the follow ends
	// without error when that attempt has ended: the job ended on it, or
	// reports a later one. Zero follows the attempt that is the
	// job's latest when the follow first reads the job (see
	// [ActionsService.FollowJobLog] for a job run again meanwhile).
	Attempt int64
	// Interval is the wait between reads while the job runs (default 2s);
	// it grows by half after each read that brought nothing new, up to
	// MaxInterval (default 30s), and comes back to Interval when the log
	// grows.
	Interval    time.Duration
	MaxInterval time.Duration
}

// followBufSize is the one buffer a follow copies through.
const followBufSize = 32 << 10

// followMaxFailures is how many reads in a row may fail midway, each
// resumed from the last byte written, before FollowJobLog gives up. A read
// that delivers bytes starts the count again.
const followMaxFailures = 5

// FollowJobLog writes a job's log to w as it grows, until the job has
// ended and a read after its end brought nothing new; it returns the job
// as last read ([ActionsService.ListRunJobs]). Each read asks for the
// bytes after the last one written (Range: bytes=N-), so no byte is
// written twice, and a read cut off midway is resumed from where it
// stopped, so none is lost; a server that ignores Range is read past the
// N bytes already written. Memory stays one fixed buffer. Every read goes
// through the client: paced, retried until its headers arrive, redacted,
// bounded by the download limit ([WithMaxDownloadBytes]) per read.
//
// The wait between reads starts at opts.Interval and grows while nothing
// new comes (see [FollowLogOptions]), on the client's [Clock]. A job that
// has not started has no log yet (Gitea and Forgejo answer 404 "job not
// started"): FollowJobLog keeps waiting, and a job that ends without ever
// starting (cancelled, skipped) ends the follow with nothing written.
//
// A job can be run again (a new attempt, with a log of its own) while its
// log is followed. Every read names the attempt that was the latest when
// the job was first read (?attempt=N, once the job reports one), so the
// log written to w is that attempt's and no other's. When the job reports
// a later attempt, FollowJobLog reads what remains of the followed
// attempt's log and returns the job with a [*JobRerunError]
// ([ErrJobRerun]); following it again follows the new attempt from its
// first byte. A server whose jobs report no attempt is read as before,
// without ?attempt.
//
// Job logs and the jobs route are Forgejo 16.0's: on an older release
// FollowJobLog fails with an [*UnsupportedOperationError], before sending
// when the client knows the server's release and otherwise at the first
// read's 404. A write error of w ends the follow with that error; so does
// ctx, with ctx's error.
func (s *ActionsService) FollowJobLog(ctx context.Context, owner, repo string, runID, jobID int64, w io.Writer, opts *FollowLogOptions) (*ActionRunJob, error) {
	if w == nil {
		return nil, &ValidationError{Field: "w", Message: "must not be nil"}
	}
	o := deref(opts)
	f := &logFollower{s: s, owner: owner, repo: repo, jobID: jobID, w: w, step: o.Step, attempt: o.Attempt, buf: make([]byte, followBufSize)}
	b := newPollBackoff(o.Interval, o.MaxInterval)
	var (
		job        *ActionRunJob
		ended      bool // the followed attempt has ended: read until nothing new comes
		superseded bool // it ended because the job was run again
		resume     bool // the last read was cut off midway: read on before polling
		failures   int
	)
	for {
		if !ended && !resume {
			j, _, err := s.findJob(ctx, owner, repo, runID, jobID)
			if err != nil {
				if ctx.Err() != nil {
					return job, ctx.Err()
				}
				return job, err
			}
			job = j
			later := f.track(job, o.Attempt > 0)
			// A chosen attempt is simply over once a later one exists.
			superseded = later && o.Attempt == 0
			ended = later || job.Status.Done()
		}
		resume = false
		n, midway, err := f.read(ctx)
		if n > 0 {
			failures = 0
		}
		if err != nil {
			if ctx.Err() != nil {
				return job, ctx.Err()
			}
			if !midway {
				return job, err
			}
			// Cut off midway: what arrived is written; ask again from there.
			if failures++; failures >= followMaxFailures {
				return job, err
			}
			if err := s.client.sleep(ctx, b.first); err != nil {
				return job, err
			}
			resume = true
			continue
		}
		if ended {
			if n > 0 {
				continue // read on at once until nothing new comes
			}
			if superseded {
				return job, &JobRerunError{Job: job, Attempt: f.attempt}
			}
			return job, nil
		}
		if err := s.client.sleep(ctx, b.next(n > 0)); err != nil {
			return job, err
		}
	}
}

// logFollower holds a follow's position: how many bytes of the log have
// been written.
type logFollower struct {
	s           *ActionsService
	owner, repo string
	jobID       int64
	w           io.Writer
	step        int
	attempt     int64 // the attempt followed (?attempt=N); 0 until known
	task        int64 // the task running it, when the job reported one
	buf         []byte
	off         int64 // bytes written so far
}

// track pins the follow to the attempt job reports as its latest, the
// first time it reports one (unless the caller chose the attempt: fixed),
// and reports whether the job has since been run again: a later attempt,
// or another task than the one that ran the pinned attempt.
func (f *logFollower) track(job *ActionRunJob, chosen bool) (superseded bool) {
	if f.attempt == 0 {
		if job.Attempt > 0 {
			f.attempt, f.task = job.Attempt, job.TaskID
		}
		return false
	}
	if !chosen && f.task == 0 && job.Attempt == f.attempt {
		f.task = job.TaskID
	}
	return job.Attempt > f.attempt || (f.task != 0 && job.TaskID != 0 && job.TaskID != f.task)
}

// read asks for the log past f.off and writes what comes; n is how many
// new bytes were written. A read cut off midway returns what it wrote and
// the failure with midway true.
func (f *logFollower) read(ctx context.Context) (n int64, midway bool, err error) {
	opts := []RequestOption{knownRelease()}
	if f.off > 0 {
		opts = append(opts, Header("Range", "bytes="+strconv.FormatInt(f.off, 10)+"-"))
	}
	if f.step > 0 {
		opts = append(opts, QueryParam("step", strconv.Itoa(f.step)))
	}
	body, resp, err := f.s.OpenJobLogs(ctx, f.owner, f.repo, f.jobID, &ActionGetJobLogsOptions{Attempt: f.attempt}, opts...)
	if err != nil {
		var ae *APIError
		switch {
		case errors.Is(err, ErrUnsupportedOperation):
			return 0, false, err
		case errors.As(err, &ae) && ae.StatusCode == http.StatusRequestedRangeNotSatisfiable:
			return 0, false, nil // nothing past the offset yet
		case errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound:
			return 0, false, nil // no log yet: the job has not started
		}
		return 0, false, err
	}
	defer body.Close()
	skip := int64(0)
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, ok := contentRangeStart(resp.Header.Get("Content-Range"))
		switch {
		case !ok:
			return 0, false, fmt.Errorf("forgejo: job %d's log answered 206 without a usable Content-Range", f.jobID)
		case start > f.off:
			return 0, false, fmt.Errorf("forgejo: job %d's log answered from byte %d where byte %d was asked for", f.jobID, start, f.off)
		}
		skip = f.off - start
	default:
		skip = f.off // the whole log: the server ignored Range
	}
	if skip > 0 {
		if _, err := io.CopyBuffer(io.Discard, io.LimitReader(body, skip), f.buf); err != nil {
			return 0, resumable(err), err
		}
	}
	for {
		m, rerr := body.Read(f.buf)
		if m > 0 {
			wn, werr := f.w.Write(f.buf[:m])
			f.off += int64(wn)
			n += int64(wn)
			if werr != nil {
				return n, false, werr
			}
			if wn < m {
				return n, false, io.ErrShortWrite
			}
		}
		switch {
		case rerr == io.EOF:
			return n, false, nil
		case rerr != nil:
			return n, resumable(rerr), rerr
		}
	}
}

// resumable reports whether a streamed body's read failure is worth
// resuming from the last byte written: a cut connection, a timeout, not a
// cancellation or a passed download bound.
func resumable(err error) bool {
	var te *TransportError
	return errors.As(err, &te) && te.Kind != TransportCanceled && te.Kind != TransportResponseTooLarge
}

// contentRangeStart reads the first byte position of a Content-Range
// header ("bytes 100-199/200").
func contentRangeStart(v string) (int64, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(first), 10, 64)
	return n, err == nil && n >= 0
}

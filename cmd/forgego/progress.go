package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
)

// progress is the one-line display of a long walk on stderr: what has been
// fetched so far and, while the client waits, what for and how long
// ("retry in 1s after 503 Service Unavailable"). It counts a wait down
// rather than freezing. A disabled progress does nothing.
type progress struct {
	w       io.Writer
	enabled bool
	now     func() time.Time
	tick    time.Duration

	mu     sync.Mutex
	status string    // "fetched 100 of 240 issues"
	wait   string    // "retry in %s after 503 Service Unavailable", %s the time left
	until  time.Time // end of the wait
	drawn  bool
	stop   chan struct{}
	ticker sync.WaitGroup
}

func newProgress(w io.Writer, enabled bool) *progress {
	return &progress{w: w, enabled: enabled, now: time.Now, tick: 250 * time.Millisecond}
}

// set replaces the status; any wait is over.
func (p *progress) set(format string, args ...any) {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = fmt.Sprintf(format, args...)
	p.wait = ""
	p.draw()
}

// waiting shows that the client waits d, for the reason format (whose %s
// is the time left).
func (p *progress) waiting(format string, d time.Duration) {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wait, p.until = format, p.now().Add(d)
	p.draw()
	if p.stop == nil {
		p.stop = make(chan struct{})
		p.ticker.Add(1)
		go p.countdown(p.stop)
	}
}

// resume ends a wait: the client sends again.
func (p *progress) resume() {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.wait != "" {
		p.wait = ""
		p.draw()
	}
}

func (p *progress) countdown(stop chan struct{}) {
	defer p.ticker.Done()
	t := time.NewTicker(p.tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			if p.wait != "" {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// line is what the display shows now. Called with mu held.
func (p *progress) line() string {
	s := p.status
	if p.wait != "" {
		w := fmt.Sprintf(p.wait, seconds(p.until.Sub(p.now())))
		if s != "" {
			s += " · " + w
		} else {
			s = w
		}
	}
	return s
}

// draw redraws the line. Called with mu held.
func (p *progress) draw() {
	p.control(p.line())
	p.drawn = true
}

// control returns to the start of the line, erases it and shows text
// there: the escape sequence is the program's own (Writer.WriteControl),
// the text is shown under the display rule like any other.
func (p *progress) control(text string) {
	const eraseLine = "\r\033[K"
	if w, ok := p.w.(*iostreams.Writer); ok {
		_ = w.WriteControl(eraseLine, text)
		return
	}
	fmt.Fprint(p.w, eraseLine+text)
}

// done clears the line and stops the countdown; the display can be used
// again afterwards.
func (p *progress) done() {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	stop := p.stop
	p.stop = nil
	p.mu.Unlock()
	if stop != nil {
		close(stop)
		p.ticker.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		p.control("")
		p.drawn = false
	}
	p.status, p.wait = "", ""
}

// seconds renders a wait for people: whole seconds, rounded up, or
// tenths below one second.
func seconds(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	tenths := (d + 100*time.Millisecond - 1) / (100 * time.Millisecond) // rounded up
	if tenths < 10 {
		return fmt.Sprintf("0.%ds", tenths)
	}
	return fmt.Sprintf("%ds", (d+time.Second-1)/time.Second)
}

// waitReason says what a retry waits for, as a format for progress.waiting.
func waitReason(err error) string {
	var ae *forgejo.APIError
	if errors.As(err, &ae) {
		if ae.StatusCode == http.StatusTooManyRequests {
			return "rate limit (429): retry in %s, when the instance allows"
		}
		return fmt.Sprintf("retry in %%s after %d %s", ae.StatusCode, http.StatusText(ae.StatusCode))
	}
	var te *forgejo.TransportError
	if errors.As(err, &te) {
		return "retry in %s after " + te.Kind.String()
	}
	return "retry in %s"
}

// progressHooks feed the progress display: a request resumes it, a backoff
// or a pacing wait shows why and for how long.
func progressHooks(prog *progress) forgejo.Hooks {
	return forgejo.Hooks{
		Request: func(context.Context, forgejo.CallContext) { prog.resume() },
		Retry: func(_ context.Context, _ forgejo.CallContext, err error, wait time.Duration) {
			prog.waiting(waitReason(err), wait)
		},
		RateLimitWait: func(_ context.Context, _ forgejo.CallContext, wait time.Duration) {
			prog.waiting("rate limit spent: waiting %s for the reset", wait)
		},
	}
}

// Set and Done make the progress line a cmdutil.Progress.
func (p *progress) Set(format string, args ...any) { p.set(format, args...) }
func (p *progress) Done()                          { p.done() }

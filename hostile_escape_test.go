package forgejo

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// A Client.Do path with a malformed percent-escape is the
// caller's mistake, found before anything is sent: a *ValidationError on
// Field "path", never a (retryable) transport error, never retried. The
// rule lives in checkRawPath (do.go) with checkEscapes and
// checkDotSegments (urls.go).

// heRefused are paths Client.Do must refuse before sending.
var heRefused = []string{
	"/repos/a/%u002e%u002e/b", // IIS-style %u escapes forming ".."
	"/repos/a/%u002e%u002e",
	"/repos/a/%U002E%U002E/b",
	"/repos/a/%u002e./b",
	"/repos/a/.%u002e/b",
	"/repos/a/%u002e%u002e%u002fadmin",
	"/repos/%zz",
	"/repos/o/%ZZ/r",
	"/repos/o/r%",   // a trailing %
	"/repos/o/r%2",  // one hex digit
	"/repos/o/r/%2", // one hex digit, its own segment
	"/repos/o/%%/r", // %%
	"/repos/o/%%2e%2e/r",
	"/repos/a/%%32%65%%32%65/b", // %% hiding an encoded dot
	"/repos/o/r/%g0",
	"/repos/o/r/%0g",
	"/repos/o/r/%-1",
	"/repos/o/r/100%",
	"/repos/o/r/%2e%2/x", // a valid escape, then a cut one
	"/repos/o/r%2F%zz",
	"/%",
	"%",
	"/repos/a/%25u002e%25u002e/b",   // valid escapes that decode to %u002e%u002e: ".." to a server that decodes twice
	"/repos/a/%2525u002e%2525u002e", // the same, three decodings deep
	"/repos/a/%u002e%u002e/../b",
}

// heAllowed are paths with valid escapes that Client.Do sends as given.
var heAllowed = []string{
	"/repos/o/r/releases/tags/v1%2Frc", // %2F inside a segment
	"/repos/o/r/releases/tags/v1%2frc",
	"/repos/o/r/contents/100%25",    // %25, a literal percent
	"/repos/o/r/contents/50%25off",  // %25 followed by letters that are not hex
	"/repos/o/r/contents/a%20b",     // %20
	"/repos/o/r/contents/%E2%9C%93", // UTF-8
	"/repos/o/r/contents/%e2%9c%93", // lower-case hex
	"/repos/o/r/contents/a%2Eb",     // an encoded dot inside a name
	"/repos/o/r/contents/a%7Eb",
	"/repos/o/r/contents/%25u0041", // "%u0041" after one decoding: a name, not a dot segment
	"/repos/o/r/issues/1",
	"/repos/o/r/contents/a%2E%2Eb", // ".." inside a name, not a segment
}

func TestHostileDoMalformedEscape(t *testing.T) {
	rec := &hsRecorder{}
	k := &clFakeClock{t: time.Unix(1_800_000_000, 0)}
	obs := &gnOps{}
	c, err := NewClient(WithBaseURL("https://forge.example"), WithHTTPClient(&http.Client{Transport: rec}), WithClock(k), withObserver(obs),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 4, BaseDelay: time.Second, MaxDelay: time.Second, Jitter: JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range heRefused {
		for _, m := range []string{"GET", "DELETE"} {
			_, err := c.Do(context.Background(), &Request{Method: m, Path: p, Retry: RetryAlways}, nil)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "path" {
				t.Errorf("%s %q: err = %v (%T), want a *ValidationError on path", m, p, err, err)
			}
			if sent := rec.take(); len(sent) != 0 {
				t.Errorf("%s %q: sent %v", m, p, sent)
			}
		}
	}
	obs.mu.Lock()
	attempts := len(obs.ops)
	obs.mu.Unlock()
	if attempts != 0 || len(k.sleeps) != 0 {
		t.Errorf("refused paths made %d attempts and %d backoff waits, want none", attempts, len(k.sleeps))
	}
	for _, p := range heAllowed {
		_, err := c.Do(context.Background(), &Request{Method: "GET", Path: p, Retry: RetryAlways}, nil)
		sent := rec.take()
		if err != nil || len(sent) != 1 || sent[0] != "/api/v1"+p {
			t.Errorf("GET %q: err %v, sent %v; want it sent as given", p, err, sent)
		}
	}
	t.Logf("%d refused and %d allowed vectors", len(heRefused), len(heAllowed))
}

// A path argument is escaped by the library ('%' goes out as %25), so a
// '%' in it is never malformed; but one that a server decoding IIS-style
// %u escapes would read as a dot segment is refused like "..", by
// checkDotSegments.
func TestHostileArgUEscapeDotSegment(t *testing.T) {
	rec := &hsRecorder{}
	c, err := NewClient(WithBaseURL("https://forge.example"), WithRetryPolicy(RetryOff()), WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"%u002e%u002e", "a/%u002e%u002e/b", "%U002E", "%u002e%u002e%u002fadmin", "%u002e.", "a/%u002E%u002e"} {
		_, _, err := c.Repos.GetContents(context.Background(), "o", "r", v, nil)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != "filepath" {
			t.Errorf("GetContents(%q): err = %v, want a *ValidationError on filepath", v, err)
		}
		if sent := rec.take(); len(sent) != 0 {
			t.Errorf("GetContents(%q) sent %v", v, sent)
		}
	}
	for _, v := range []string{"100%", "50%off", "%zz", "%u0041bc", "a%u002eb"} {
		_, _, err := c.Repos.GetContents(context.Background(), "o", "r", v, nil)
		if sent := rec.take(); err != nil || len(sent) != 1 {
			t.Errorf("GetContents(%q): err %v, sent %v; want it sent", v, err, sent)
		}
	}
}

package forgejo

import (
	"codeberg.org/forgego/forgejo/internal/secret"

	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSecretSetBounded: a token source that mints a token per attempt
// keeps the client's secret set bounded, while every token a call sent is
// still masked in that call's texts (its own echo, and an earlier
// attempt's echoed by a retry), and the latest tokens of other calls too.
func TestSecretSetBounded(t *testing.T) {
	var (
		mu     sync.Mutex
		minted []string
	)
	var n atomic.Int64
	src := TokenSourceFunc(func(context.Context) (Token, error) {
		n.Add(1)
		tok := "minted-" + randomHexForTest(16) // distinct grams, as real tokens have
		mu.Lock()
		minted = append(minted, tok)
		mu.Unlock()
		return Token{Value: tok}, nil
	})
	// The server echoes, in its error message, the token of this attempt,
	// of the attempt before it, and of the one 20 attempts back.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		k := len(minted)
		echo := []string{strings.TrimPrefix(r.Header.Get("Authorization"), "token ")}
		if k >= 2 {
			echo = append(echo, minted[k-2])
		}
		if k >= 21 {
			echo = append(echo, minted[k-21])
		}
		mu.Unlock()
		msg, _ := json.Marshal(map[string]string{"message": "bad tokens: " + strings.Join(echo, ", ")})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(msg)
	}))
	defer srv.Close()
	c, err := NewClient(WithBaseURL(srv.URL), WithTokenSource(src), WithClock(hsNoClock{}),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	const calls = 1500 // 3000 tokens: two attempts a call
	leaks := 0
	for i := 0; i < calls; i++ {
		_, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil)
		if err == nil {
			t.Fatal("want the 503 error")
		}
		if hexRun.MatchString(err.Error()) {
			leaks++
			if leaks < 5 {
				t.Errorf("call %d shows a token: %v", i, err)
			}
		}
	}
	set := c.secretsFn()
	kept, grams, bytes := set.Size()
	if kept > secret.MaxSourceTokens {
		t.Errorf("the set keeps %d tokens, want at most %d", kept, secret.MaxSourceTokens)
	}
	t.Logf("%d tokens minted; the set keeps %d (%d grams, about %d KiB of keys and forms); %d calls showed a token", n.Load(), kept, grams, bytes>>10, leaks)
	// An evicted token is no longer masked by the client's set, and no
	// gram of it stays behind to mask other text.
	if s := set.Scrub(minted[0][len("minted-"):]); s != minted[0][len("minted-"):] {
		t.Errorf("an evicted token is still in the set: %q", s)
	}
	if s := set.Scrub(minted[len(minted)-1]); s != redactedMask {
		t.Errorf("the latest token is not masked: %q", s)
	}
}

// hexRun matches a run of a minted token's random part.
var hexRun = regexp.MustCompile(`[0-9a-f]{8}`)

func randomHexForTest(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// runLen is the shortest run of a secret that is masked wherever it
// appears (secret.RunLen), for the hostile tests.
const runLen = secret.RunLen

package forgejo

import "sync"

// This file is the retry budget (WithRetryBudget): one budget of retries
// shared by every call of a client, which the retry loop (retry_loop.go)
// consults before each retry.

// RetryBudget configures [WithRetryBudget], in the spirit of gRPC retry
// throttling: the budget starts full at MaxTokens; every failed attempt
// whose failure is retryable costs one token; every success gives back
// TokenRatio; retries are allowed only while more than half the tokens
// remain. Many concurrent calls therefore cannot multiply a 429 or 503 storm:
// once failures dominate, calls fail after their first attempt until
// successes refill the budget.
type RetryBudget struct {
	MaxTokens  float64
	TokenRatio float64
}

// WithRetryBudget shares one retry budget among every call of the client.
// Off by default.
func WithRetryBudget(b RetryBudget) ClientOption {
	return func(c *config) error {
		if b.MaxTokens <= 0 || b.MaxTokens > 1000 {
			return &ValidationError{Field: "retryBudget.MaxTokens", Message: "must be in (0, 1000]"}
		}
		if b.TokenRatio <= 0 || b.TokenRatio > 1 {
			return &ValidationError{Field: "retryBudget.TokenRatio", Message: "must be in (0, 1]"}
		}
		c.budget = &b
		return nil
	}
}

// retryTokens is a client's retry budget; nil when it has none, which
// allows every retry.
type retryTokens struct {
	mu     sync.Mutex
	budget RetryBudget
	tokens float64
}

// newRetryTokens is a full budget, or nil when b is nil.
func newRetryTokens(b *RetryBudget) *retryTokens {
	if b == nil {
		return nil
	}
	return &retryTokens{budget: *b, tokens: b.MaxTokens}
}

// allowRetry reports whether the retry budget permits one more retry.
func (l *retryTokens) allowRetry() bool {
	if l == nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tokens > l.budget.MaxTokens/2
}

// recordOutcome feeds the retry budget: a retryable failure costs a token,
// a success gives back TokenRatio.
func (l *retryTokens) recordOutcome(success, retryableFailure bool) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case success:
		l.tokens = min(l.tokens+l.budget.TokenRatio, l.budget.MaxTokens)
	case retryableFailure:
		l.tokens = max(l.tokens-1, 0)
	}
}

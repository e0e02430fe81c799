package forgejo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// This file holds token sources: credentials that change while a client
// lives (OAuth2 access tokens that refresh, short-lived tokens minted by a
// vault). The client asks the source before every attempt, and masks every
// token it ever returned, like a static one, in everything it renders.

// Token is one credential from a [TokenSource].
type Token struct {
	// Value is the secret itself.
	Value string
	// Type is the Authorization scheme: "Bearer" for OAuth2 access tokens,
	// "token" (the default when empty) for Forgejo access tokens.
	Type string
}

// Format renders the token with its Value masked, under every verb, so
// that printing one never shows it.
func (t Token) Format(f fmt.State, verb rune) { secret.Format(f, verb, "forgejo.Token", t.masked()) }

// LogValue renders the token for log/slog with its Value masked.
func (t Token) LogValue() slog.Value { return slog.AnyValue(t.masked()) }

// MarshalJSON encodes the token with its Value masked: a Token is
// configuration, never sent as JSON, and a program that logs its
// configuration as JSON must not log the secret.
func (t Token) MarshalJSON() ([]byte, error) { return json.Marshal(t.masked()) }

type maskedToken Token

func (t Token) masked() maskedToken {
	m := maskedToken(t)
	m.Value = secret.Masked(m.Value)
	return m
}

// TokenSource supplies the token for each attempt. It must be safe for
// concurrent use and should cache: it is called before every attempt, and
// refreshing is its job. golang.org/x/oauth2's TokenSource adapts in a few
// lines (see the README).
type TokenSource interface {
	Token(ctx context.Context) (Token, error)
}

// TokenSourceFunc adapts a function to a [TokenSource].
type TokenSourceFunc func(ctx context.Context) (Token, error)

// Token calls f.
func (f TokenSourceFunc) Token(ctx context.Context) (Token, error) { return f(ctx) }

// WithTokenSource authenticates every attempt with the token ts returns at
// that moment, sent as "Authorization: <Type> <Value>". It replaces
// [WithToken] and [WithBasicAuth]. A failing source fails the call with an
// [*AuthError], which is not retried; so does a source that panics (the
// AuthError's Err is then a [*PanicError]).
func WithTokenSource(ts TokenSource) ClientOption {
	return func(c *config) error {
		if ts == nil {
			return &ValidationError{Field: "tokenSource", Message: "must not be nil"}
		}
		c.tokenSource = ts
		c.cred = func() *credential { return &credential{kind: "token source"} }
		return nil
	}
}

// authorization returns the Authorization header value for one attempt:
// the call's own token or token source (UseToken,
// UseTokenSource) when it has one, else the client's. A source's
// token is recorded as a secret before it is used: in the client's set
// when it is the client's source, and always in the call's own.
func (c *Client) authorization(ctx context.Context, extra *callOptions, callSecrets *secret.Set) (string, error) {
	ts, clients := c.tokenSource, true
	if extra != nil {
		switch {
		case extra.auth != "":
			return extra.auth, nil
		case extra.tokenSource != nil:
			ts, clients = extra.tokenSource, false
		}
	}
	if ts == nil {
		if cr := c.credential(); cr != nil {
			return cr.header, nil
		}
		return "", nil
	}
	tok, err := sourceToken(ctx, ts)
	value := strings.TrimSpace(tok.Value)
	if value != "" {
		// Before anything can echo it, even on error: the client's set
		// (bounded) for its own source's tokens, and the call's own (every
		// token this call sent).
		if clients {
			c.secretsFn().AddToken(value)
		}
		callSecrets.Add(value)
	}
	if err != nil {
		return "", err
	}
	if value == "" || hasControl(value) {
		return "", errors.New("the token source returned a blank token or one with control characters")
	}
	kind := strings.TrimSpace(tok.Type)
	switch strings.ToLower(kind) {
	case "", "token":
		kind = "token"
	case "bearer":
		kind = "Bearer"
	default:
		if hasControl(kind) || strings.ContainsAny(kind, " \t") {
			return "", errors.New("the token source returned an invalid token type")
		}
	}
	return kind + " " + value, nil
}

// sourceToken asks the token source, turning a panic into a *PanicError so
// that the attempt ends on the ordinary path, releasing its pacing slot.
func sourceToken(ctx context.Context, ts TokenSource) (tok Token, err error) {
	defer func() {
		if pe := recoverPanic("token source", recover()); pe != nil {
			tok, err = Token{}, pe
		}
	}()
	return ts.Token(ctx)
}

// Package oauth2example shows how to authenticate forgego with an OAuth2
// access token that refreshes itself, through golang.org/x/oauth2. It lives
// in a module of its own so that the core module keeps no requirements.
package oauth2example

import (
	"context"

	"codeberg.org/forgego/forgejo"
	"golang.org/x/oauth2"
)

// TokenSource adapts an oauth2.TokenSource (which refreshes the access
// token when it expires) to forgejo.TokenSource. Wrap it with
// oauth2.ReuseTokenSource, as oauth2.Config.TokenSource does, so that a
// token is refreshed only when it expires, not on every attempt.
func TokenSource(ts oauth2.TokenSource) forgejo.TokenSource {
	return forgejo.TokenSourceFunc(func(context.Context) (forgejo.Token, error) {
		t, err := ts.Token()
		if err != nil {
			return forgejo.Token{}, err
		}
		return forgejo.Token{Value: t.AccessToken, Type: t.Type()}, nil
	})
}

// NewClient builds a client for an instance that authenticates with the
// OAuth2 application cfg and the user's token tok (from cfg.Exchange after
// the authorization-code flow, or from storage).
func NewClient(ctx context.Context, instance string, cfg *oauth2.Config, tok *oauth2.Token) (*forgejo.Client, error) {
	return forgejo.NewClient(
		forgejo.WithBaseURL(instance),
		forgejo.WithTokenSource(TokenSource(cfg.TokenSource(ctx, tok))),
	)
}

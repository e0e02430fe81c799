package forgeredis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// The password rule, in one place: every error a Queue, a Guard or a Pacer
// returns went through wrapErr or scrub with the password of its client
// (passwordOf), so that no error text names it, even one in which the
// server quoted it back.

// passwordOf is the password rdb authenticates with, for every client type
// of go-redis that [redis.NewUniversalClient] returns: a [*redis.Client]
// (single node or failover), a [*redis.ClusterClient] and a [*redis.Ring].
// Another implementation of [redis.UniversalClient] gives no way to read
// its password. A func, so that no rendering of the value shows it.
func passwordOf(rdb redis.UniversalClient) func() string {
	pw := ""
	switch c := rdb.(type) {
	case *redis.Client:
		pw = c.Options().Password
	case *redis.ClusterClient:
		pw = c.Options().Password
	case *redis.Ring:
		pw = c.Options().Password
	}
	return func() string { return pw }
}

// wrapErr makes err, from operation op, an error of this package without
// the password.
func wrapErr(op string, err error, password string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("forgeredis: %s: %w", op, err)
	}
	if s := scrub(err, password); s != err {
		return &scrubbed{text: "forgeredis: " + op + ": " + s.Error()}
	}
	return fmt.Errorf("forgeredis: %s: %w", op, err)
}

// scrub returns err itself when its text does not hold password, and
// otherwise an error of the text with the password replaced by "***"
// (never the original error, which still holds it).
func scrub(err error, password string) error {
	if err == nil || password == "" || !strings.Contains(err.Error(), password) {
		return err
	}
	return &scrubbed{text: strings.ReplaceAll(err.Error(), password, "***")}
}

// scrubbed is an error whose text held the password: only the scrubbed
// text is kept.
type scrubbed struct{ text string }

func (s *scrubbed) Error() string { return s.text }

package forgeredis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestPacerNeverRendersTheRedisPassword: a Pacer holds a Redis client whose
// options carry a password; no fmt verb, slog handler or JSON shows it.
func TestPacerNeverRendersTheRedisPassword(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", Password: "redis-pass-7f3e9a1c", Username: "u"})
	p, err := NewPacer(rdb, "quota")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		out = append(out, fmt.Sprintf(v, p), fmt.Sprintf(v, []any{p}))
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "p", p)
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "p", p)
	b, _ := json.Marshal(p) //lint:ignore SA9005 a Pacer must encode to nothing a user could log
	out = append(out, buf.String(), string(b))
	for _, o := range out {
		if strings.Contains(o, "redis-pass") || strings.Contains(o, fmt.Sprintf("%x", "redis-pass")) {
			t.Errorf("leak: %s", o)
		}
	}
}

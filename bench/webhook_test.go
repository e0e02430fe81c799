package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/go-playground/webhooks/v6/gitea"
)

// Receiving webhook deliveries (issue 20): verify and parse, forgego's
// webhook.Parser against go-playground/webhooks' gitea parser, on the same
// deliveries (BenchmarkWebhookParse), and the durable path, request to 2xx
// through a Handler with a queue over loopback HTTP
// (BenchmarkWebhookDurable, webhook_durable_test.go).

// hookSecret is the secret of the captured hooks (webhook/testdata); the
// deliveries here are signed with it.
const hookSecret = "forgego-webhook-secret"

// hookDelivery is one delivery as Forgejo 15 sends it: the body and the
// header lines of webhook.Build, which are those of the captures
// (webhook's TestCaptureHeadersAreBuild). They carry X-Gitea-Event and
// X-Gitea-Signature, the two headers go-playground's gitea parser reads,
// next to the X-Forgejo-* ones forgego reads.
type hookDelivery struct {
	name   string
	event  webhook.EventType
	body   []byte
	header http.Header
}

// capturedPayload reads a real delivery's payload, copied from
// webhook/testdata into testdata/webhook, byte for byte (Forgejo indents
// its payloads).
func capturedPayload(name string) ([]byte, error) {
	return os.ReadFile("testdata/webhook/" + name)
}

// push10k is a push of six commits, about 10 kB: the largest captured push
// (115, three commits, 7.7 kB) with the commits of three other captured
// pushes (007, 061, 146) appended to its commits array, as they were
// received, and total_commits set to match. Nothing else changes.
func push10k() ([]byte, error) {
	base, err := capturedPayload("115-push-none.json")
	if err != nil {
		return nil, err
	}
	var commits struct {
		Commits []json.RawMessage `json:"commits"`
	}
	if err := json.Unmarshal(base, &commits); err != nil {
		return nil, err
	}
	last := commits.Commits[len(commits.Commits)-1]
	at := bytes.Index(base, last)
	if at < 0 || len(commits.Commits) != 3 {
		return nil, fmt.Errorf("115-push-none.json: not the capture expected")
	}
	at += len(last)
	var extra []byte
	for _, name := range []string{"007-push-none.json", "061-push-none.json", "146-push-none.json"} {
		p, err := capturedPayload(name)
		if err != nil {
			return nil, err
		}
		var c struct {
			Commits []json.RawMessage `json:"commits"`
		}
		if err := json.Unmarshal(p, &c); err != nil || len(c.Commits) != 1 {
			return nil, fmt.Errorf("%s: not the capture expected (%v)", name, err)
		}
		extra = append(append(extra, ",\n    "...), c.Commits[0]...)
	}
	out := append(append(append([]byte(nil), base[:at]...), extra...), base[at:]...)
	out = bytes.Replace(out, []byte(`"total_commits": 3,`), []byte(`"total_commits": 6,`), 1)
	if !json.Valid(out) {
		return nil, fmt.Errorf("push10k: the spliced payload is not JSON")
	}
	return out, nil
}

// hookDeliveries returns the two deliveries of the comparison: the ~10 kB
// push and a real issues (opened) delivery of 5.5 kB (capture 055).
func hookDeliveries(tb testing.TB) []hookDelivery {
	ds, err := loadHookDeliveries()
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

// loadHookDeliveries is hookDeliveries for a child process, which has no
// testing.TB.
func loadHookDeliveries() ([]hookDelivery, error) {
	push, err := push10k()
	if err != nil {
		return nil, err
	}
	issues, err := capturedPayload("055-issues-opened.json")
	if err != nil {
		return nil, err
	}
	var ds []hookDelivery
	for _, d := range []struct {
		name    string
		event   webhook.EventType
		payload []byte
	}{
		{"push10k", webhook.EventPush, push},
		{"issues5k", webhook.EventIssues, issues},
	} {
		out := webhook.Build(d.event, d.payload, webhook.BuildOptions{Secret: hookSecret, DeliveryID: "6c1b2a4e-8f3d-4c5b-9a7e-2d1f0e3c4b5a"})
		ds = append(ds, hookDelivery{d.name, d.event, out.Body, out.HTTPHeader()})
	}
	return ds, nil
}

// hookRequest is a POST of d as a server hands it to its handler: the
// header as received (canonical keys, http.Server's spelling), the body a
// reader reset for each parse, and a context that can end (a server's
// always can; forgego's parser reads the body differently without one).
func hookRequest(d hookDelivery) (*http.Request, *bytes.Reader) {
	rd := bytes.NewReader(d.body)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://hook.invalid/hook", io.NopCloser(rd))
	req.ContentLength = int64(len(d.body))
	h := make(http.Header, len(d.header))
	for k, vs := range d.header {
		h[http.CanonicalHeaderKey(k)] = append(h[http.CanonicalHeaderKey(k)], vs...)
	}
	req.Header = h
	ctx, cancel := context.WithCancel(context.Background())
	_ = cancel // lives as long as the benchmark
	return req.WithContext(ctx), rd
}

// hookParsers are the two parsers, each verifying the signature and
// decoding the payload into its event type; check tells that the result is
// the delivery's.
type hookParser struct {
	name  string
	parse func(tb testing.TB) func(r *http.Request) (check func(hookDelivery) error)
}

var hookParsers = []hookParser{
	{"forgego", func(tb testing.TB) func(r *http.Request) func(hookDelivery) error {
		p, err := webhook.NewParser(webhook.WithSecret(hookSecret))
		if err != nil {
			tb.Fatal(err)
		}
		return func(r *http.Request) func(hookDelivery) error {
			ev, err := p.ParseRequest(r)
			return func(d hookDelivery) error {
				if err != nil {
					return err
				}
				switch e := ev.(type) {
				case *webhook.PushEvent:
					if len(e.Commits) != 6 || e.Repository == nil || e.Repository.ID == 0 {
						return fmt.Errorf("push: %d commits", len(e.Commits))
					}
				case *webhook.IssuesEvent:
					if e.Issue == nil || e.Issue.Number == 0 || e.Repository == nil {
						return fmt.Errorf("issues: no issue")
					}
				default:
					return fmt.Errorf("%T", ev)
				}
				return nil
			}
		}
	}},
	{"goplayground", func(tb testing.TB) func(r *http.Request) func(hookDelivery) error {
		hook, err := gitea.New(gitea.Options.Secret(hookSecret))
		if err != nil {
			tb.Fatal(err)
		}
		return func(r *http.Request) func(hookDelivery) error {
			pl, err := hook.Parse(r, gitea.PushEvent, gitea.IssuesEvent)
			return func(d hookDelivery) error {
				if err != nil {
					return err
				}
				switch e := pl.(type) {
				case gitea.PushPayload:
					if len(e.Commits) != 6 || e.Repo == nil || e.Repo.ID == 0 {
						return fmt.Errorf("push: %d commits", len(e.Commits))
					}
				case gitea.IssuePayload:
					if e.Issue == nil || e.Issue.Index == 0 || e.Repository == nil {
						return fmt.Errorf("issues: no issue")
					}
				default:
					return fmt.Errorf("%T", pl)
				}
				return nil
			}
		}
	}},
}

// BenchmarkWebhookParse verifies (HMAC-SHA256) and parses one delivery per
// operation, from an in-memory request: what a receiver spends per
// delivery above the HTTP server's share. deliveries/cpu-s is deliveries
// per second of one core's CPU time (1e9 / cpu-ns/op).
func BenchmarkWebhookParse(b *testing.B) {
	for _, d := range hookDeliveries(b) {
		for _, hp := range hookParsers {
			b.Run(d.name+"/"+hp.name, func(b *testing.B) {
				parse := hp.parse(b)
				req, rd := hookRequest(d)
				b.SetBytes(int64(len(d.body)))
				b.ReportAllocs()
				report := deliveryMeter(b)
				for b.Loop() {
					rd.Reset(d.body)
					if err := parse(req)(d); err != nil {
						b.Fatal(err)
					}
				}
				report()
			})
		}
	}
}

// TestWebhookDeliveries checks that both parsers accept both deliveries
// and find in them what the benchmark expects, and that the spliced push
// is what its comment says.
func TestWebhookDeliveries(t *testing.T) {
	ds := hookDeliveries(t)
	if n := len(ds[0].body); n < 9500 || n > 10500 {
		t.Errorf("push10k is %d bytes", n)
	}
	if n := len(ds[1].body); n < 5000 || n > 6000 {
		t.Errorf("issues5k is %d bytes", n)
	}
	for _, d := range ds {
		for _, hp := range hookParsers {
			parse := hp.parse(t)
			req, rd := hookRequest(d)
			for range 2 {
				rd.Reset(d.body)
				if err := parse(req)(d); err != nil {
					t.Errorf("%s/%s: %v", d.name, hp.name, err)
				}
			}
			// A wrong signature is refused by both.
			bad, rd := hookRequest(d)
			bad.Header = bad.Header.Clone()
			for _, k := range []string{"X-Forgejo-Signature", "X-Gitea-Signature", "X-Gogs-Signature", "X-Hub-Signature-256"} {
				bad.Header.Set(k, webhook.Sign("another secret", d.body))
			}
			bad.Header.Set("X-Hub-Signature-256", "sha256="+webhook.Sign("another secret", d.body))
			rd.Reset(d.body)
			if err := parse(bad)(d); err == nil {
				t.Errorf("%s/%s: accepted a delivery signed with another secret", d.name, hp.name)
			}
		}
	}
}

// BenchmarkWebhookParseParts splits a delivery's cost, for
// docs/performance.md: the signature alone (webhook.Verify, HMAC-SHA256
// and the header read), forgego's decoding without verification
// (webhook.Decode: the shape check, then encoding/json into the event),
// encoding/json alone into forgego's event type and into go-playground's
// payload type, and the shape check's own pass (encoding/json into a map
// of raw top-level values, which is what it decodes first).
func BenchmarkWebhookParseParts(b *testing.B) {
	for _, d := range hookDeliveries(b) {
		newForgego := func() any {
			if d.event == webhook.EventPush {
				return new(webhook.PushEvent)
			}
			return new(webhook.IssuesEvent)
		}
		newPlayground := func() any {
			if d.event == webhook.EventPush {
				return new(gitea.PushPayload)
			}
			return new(gitea.IssuePayload)
		}
		for _, part := range []struct {
			name string
			run  func() error
		}{
			{"verify", func() error { return webhook.Verify(d.body, d.header, hookSecret) }},
			{"forgego-decode", func() error { _, err := webhook.Decode(d.event, d.body); return err }},
			{"forgego-unmarshal", func() error { return json.Unmarshal(d.body, newForgego()) }},
			{"goplayground-unmarshal", func() error { return json.Unmarshal(d.body, newPlayground()) }},
			{"toplevel-map", func() error {
				var top map[string]json.RawMessage
				return json.Unmarshal(d.body, &top)
			}},
		} {
			b.Run(d.name+"/"+part.name, func(b *testing.B) {
				b.SetBytes(int64(len(d.body)))
				b.ReportAllocs()
				defer cpu(b, nil)()
				for b.Loop() {
					if err := part.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkWebhookParseParallel is BenchmarkWebhookParse with every core
// busy (b.RunParallel, one request per goroutine): a receiver under load,
// where throughput matters. deliveries/cpu-s is again per second of one
// core's CPU time. Serially, a spare core wakes up for every goroutine a
// parse starts (forgego's ParseRequest starts one to watch the request's
// context while the body is read) and goes back to sleep, and that CPU
// time counts; with the cores busy there is none to wake.
func BenchmarkWebhookParseParallel(b *testing.B) {
	for _, d := range hookDeliveries(b) {
		for _, hp := range hookParsers {
			b.Run(d.name+"/"+hp.name, func(b *testing.B) {
				b.SetBytes(int64(len(d.body)))
				b.ReportAllocs()
				report := deliveryMeter(b)
				b.RunParallel(func(pb *testing.PB) {
					parse := hp.parse(b)
					req, rd := hookRequest(d)
					for pb.Next() {
						rd.Reset(d.body)
						if err := parse(req)(d); err != nil {
							b.Error(err)
							return
						}
					}
				})
				report()
			})
		}
	}
}

// deliveryMeter starts measuring a run of b.N deliveries; the function it
// returns reports cpu-ns/op, deliveries/cpu-s (per second of one core's CPU
// time) and steal-%.
func deliveryMeter(b *testing.B) func() {
	start := cpuTime()
	steal0, total0 := machineSteal()
	return func() {
		own := cpuTime() - start
		b.ReportMetric(float64(own)/float64(b.N), "cpu-ns/op")
		if own > 0 {
			b.ReportMetric(float64(b.N)*1e9/float64(own), "deliveries/cpu-s")
		}
		reportSteal(b, steal0, total0)
	}
}

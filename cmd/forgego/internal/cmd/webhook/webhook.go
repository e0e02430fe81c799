package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/spf13/cobra"
)

func (a *app) webhookCmd() *cobra.Command {
	cmd := groupCmd("webhook", "Receive webhook deliveries")
	cmd.AddCommand(a.webhookListenCmd(), a.webhookWorkCmd(), a.webhookDeadLettersCmd())
	return cmd
}

const webhookListenLong = `Listen for Forgejo webhook deliveries, verify each one's signature with the
hook's secret, and print it: the event type, the delivery ID and one summary
line (with --json, one JSON object a line holding the whole event). A
delivery with a bad or missing signature is rejected (answered 4xx) and
reported on stderr.

With --forward, every verified delivery is posted on to URL, body and
headers as received, and the answer of URL is what the sender gets; this
lets a service on your machine receive the deliveries of a hook, as
'gh webhook forward' does.

The address defaults to 127.0.0.1 on a free port, printed at start; point
the hook's target URL at it (through a tunnel when the instance cannot
reach your machine). The secret can also come from FORGEJO_WEBHOOK_SECRET;
it is never printed. Stop with Ctrl-C.

With --queue redis://HOST:PORT/DB, every verified delivery is stored in
Redis and answered 202 once stored (500 when Redis fails, 503 when the queue
is full, so that Forgejo records the failure), and nothing is printed: run
'forgego webhook work' to act on them. Needs Redis 6.2 or later.

Like 'webhook work', it runs with GOGC=400 unless GOGC is set: fewer
garbage collections under a stream of deliveries, for a few MB more.`

func (a *app) webhookListenCmd() *cobra.Command {
	var (
		secret, addr, forward, queueURL, queueName string
	)
	cmd := &cobra.Command{
		Use:   "listen --secret SECRET",
		Short: "Print verified webhook deliveries, and forward them",
		Long:  webhookListenLong,
		Example: `  forgego webhook listen --secret "$HOOK_SECRET"
  FORGEJO_WEBHOOK_SECRET=s3cret forgego webhook listen --addr 127.0.0.1:8099 --json
  forgego webhook listen --secret s3cret --forward http://localhost:8080/hook
  forgego webhook listen --secret s3cret --addr :8099 --queue redis://127.0.0.1:6379/0`,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if secret == "" {
				secret = a.getenv("FORGEJO_WEBHOOK_SECRET")
			}
			if secret == "" {
				return &usageError{Msg: "webhook listen needs the hook's secret",
					Hint: "Give --secret SECRET or set FORGEJO_WEBHOOK_SECRET; deliveries are verified with it."}
			}
			if forward != "" {
				u, err := url.Parse(forward)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return usagef("--forward %q is not an http(s) URL", forward)
				}
			}
			a.mask.Add(secret)
			a.receiverGC()
			if queueURL != "" {
				if forward != "" {
					return usagef("--forward and --queue do not go together: a worker ('forgego webhook work') acts on stored deliveries")
				}
				return a.listenQueue(secret, addr, queueURL, queueName)
			}
			return a.listen(secret, addr, forward)
		}),
	}
	cmd.Flags().StringVar(&secret, "secret", "", "the hook's `SECRET` (default $FORGEJO_WEBHOOK_SECRET)")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "the `HOST:PORT` to listen on; port 0 picks a free one")
	cmd.Flags().StringVar(&forward, "forward", "", "post every verified delivery on to `URL`")
	cmd.Flags().StringVar(&queueURL, "queue", "", "store every verified delivery in the Redis queue at `URL` (redis://HOST:PORT/DB)")
	queueNameFlag(cmd, &queueName)
	return cmd
}

// listen serves until the context ends (Ctrl-C).
func (a *app) listen(secret, addr, forward string) error {
	p, err := webhook.NewParser(webhook.WithSecret(secret))
	if err != nil {
		return err
	}
	var mu sync.Mutex // one delivery printed at a time
	rt := webhook.NewRouter()
	h, err := webhook.NewHandler(p, rt, webhook.WithErrorFunc(func(r *http.Request, err error) {
		var we *webhook.Error
		if errors.As(err, &we) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(a.stderr, "rejected a delivery from %s: %s\n", r.RemoteAddr, oneLine(err.Error()))
		}
		// A failed forward is reported where it happens.
	}))
	if err != nil {
		return err
	}
	fwd := &http.Client{Timeout: forwardTimeout}
	rt.HandleDefault(func(ctx context.Context, ev webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		if err := a.printDelivery(ev); err != nil {
			return err
		}
		if forward == "" {
			return nil
		}
		status, err := forwardDelivery(ctx, fwd, forward, ev)
		if err != nil {
			fmt.Fprintf(a.stderr, "  forwarding to %s failed: %s\n", forward, oneLine(err.Error()))
			return err
		}
		fmt.Fprintf(a.stderr, "  forwarded to %s: %d %s\n", forward, status, http.StatusText(status))
		if status >= 300 {
			return fmt.Errorf("%s answered %d", forward, status)
		}
		return nil
	})

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := listenServer(a.ctx, h)
	fmt.Fprintf(a.stderr, "listening for deliveries on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if forward != "" {
		fmt.Fprintf(a.stderr, "forwarding verified deliveries to %s\n", forward)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-a.ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	return a.ctx.Err()
}

// forwardTimeout bounds a forward to --forward's URL.
const forwardTimeout = 30 * time.Second

// listenServer is the http.Server of 'webhook listen', with every timeout a
// receiver exposed to the network must set (see the webhook package's
// documentation): a sender gets 5 s for its headers (Forgejo sends them at
// once) and 10 s for the whole request (the Handler's own read deadline,
// webhook.DefaultReadTimeout, is tighter); the answer may take as long as a
// forward; an idle keep-alive connection is closed after a minute; headers
// are bounded to 64 KiB (a delivery's are about 1.5 KiB).
func listenServer(ctx context.Context, h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      forwardTimeout + 10*time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
}

// forwardDelivery posts the delivery on to target, body and headers as
// received, and returns the answer's status.
func forwardDelivery(ctx context.Context, c *http.Client, target string, ev webhook.Event) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(ev.RawBody()))
	if err != nil {
		return 0, err
	}
	hdr := http.Header{"Content-Type": {"application/json"}}
	if d, ok := ev.(interface{ Header() http.Header }); ok { // every event embeds a Delivery
		hdr = d.Header()
	}
	for k, vs := range hdr {
		switch http.CanonicalHeaderKey(k) {
		case "Host", "Content-Length", "Connection", "Transfer-Encoding", "Accept-Encoding":
			continue // the transport's own
		}
		req.Header[k] = append([]string(nil), vs...)
	}
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, nil
}

// printDelivery prints one delivery: a summary line, or with --json the
// whole event on one line.
func (a *app) printDelivery(ev webhook.Event) error {
	if a.g.json {
		payload := json.RawMessage(ev.Payload())
		if !json.Valid(payload) {
			payload = json.RawMessage("null")
		}
		line, err := json.Marshal(struct {
			Event    string          `json:"event"`
			Delivery string          `json:"delivery"`
			Payload  json.RawMessage `json:"payload"`
		}{string(ev.EventType()), ev.DeliveryID(), payload})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", line)
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "%s  %s  %s\n", ev.EventType(), ev.DeliveryID(), summarize(ev))
	return err
}

// hookSummary is what a summary line reads from any payload.
type hookSummary struct {
	Action  string            `json:"action"`
	Ref     string            `json:"ref"`
	RefType string            `json:"ref_type"`
	Commits []json.RawMessage `json:"commits"`
	Repo    *struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
	Pusher *struct {
		Login string `json:"login"`
	} `json:"pusher"`
	Issue *struct {
		Number int64  `json:"number"`
		Title  string `json:"title"`
	} `json:"issue"`
	PullRequest *struct {
		Number int64  `json:"number"`
		Title  string `json:"title"`
	} `json:"pull_request"`
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
	Comment *struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	IsPull bool `json:"is_pull"`
}

// summarize says in a line who did what where: "alice/proj: alice opened
// issue #12 \"It broke\"".
func summarize(ev webhook.Event) string {
	var s hookSummary
	if err := json.Unmarshal(ev.Payload(), &s); err != nil {
		return "(payload not readable: " + oneLine(err.Error()) + ")"
	}
	who := ""
	switch {
	case s.Sender != nil && s.Sender.Login != "":
		who = s.Sender.Login
	case s.Pusher != nil:
		who = s.Pusher.Login
	}
	var what string
	switch {
	case s.Comment != nil && s.Comment.ID > 0 && s.Issue != nil && s.Issue.Number > 0:
		// issue_comment (and pull_request_comment): a comment, not the
		// issue it is on.
		kind := "issue"
		if s.IsPull || s.PullRequest != nil {
			kind = "pull request"
		}
		verb := map[string]string{"created": "commented on", "edited": "edited a comment on", "deleted": "deleted a comment on"}[s.Action]
		if verb == "" {
			verb = orDefault(s.Action, "updated") + " a comment on"
		}
		what = fmt.Sprintf("%s %s #%d %q", verb, kind, s.Issue.Number, truncate(s.Issue.Title, 60))
	case s.PullRequest != nil && s.PullRequest.Number > 0:
		what = fmt.Sprintf("%s pull request #%d %q", orDefault(s.Action, "updated"), s.PullRequest.Number, truncate(s.PullRequest.Title, 60))
	case s.Issue != nil && s.Issue.Number > 0:
		what = fmt.Sprintf("%s issue #%d %q", orDefault(s.Action, "updated"), s.Issue.Number, truncate(s.Issue.Title, 60))
	case s.Release != nil:
		what = fmt.Sprintf("%s release %s", orDefault(s.Action, "updated"), s.Release.TagName)
	case ev.EventType() == webhook.EventPush:
		what = fmt.Sprintf("pushed %d commit%s to %s", len(s.Commits), map[bool]string{true: "", false: "s"}[len(s.Commits) == 1], s.Ref)
	case s.RefType != "":
		what = fmt.Sprintf("%s %s %s", ev.EventType(), s.RefType, s.Ref)
	case s.Action != "":
		what = s.Action
	default:
		what = string(ev.EventType())
	}
	line := strings.TrimSpace(who + " " + what)
	if s.Repo != nil && s.Repo.FullName != "" {
		line = s.Repo.FullName + ": " + line
	}
	return line
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

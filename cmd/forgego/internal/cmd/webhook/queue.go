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
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgego/forgejo/forgeredis"
	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
)

// The durable mode of the webhook commands: 'listen --queue' verifies,
// stores in Redis and answers; 'work' runs a command for every stored
// delivery; 'dead-letters' lists and re-queues the ones given up on.

// defaultQueueName is the queue (and guard) name of --queue-name.
const defaultQueueName = "forgego"

// openQueue connects to the Redis of a --queue URL
// (redis://[:PASSWORD@]HOST:PORT/DB, or rediss:// for TLS). The password
// is added to the mask before anything can print it, and no error names
// the URL.
func (a *app) openQueue(raw, name string) (*redis.Client, *forgeredis.Queue, *forgeredis.Guard, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, nil, nil, usagef("--queue is not a redis://HOST:PORT/DB URL")
	}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			a.mask.Add(pw)
			a.mask.Add(url.QueryEscape(pw))
		}
	}
	opts, err := redis.ParseURL(raw)
	if err != nil {
		return nil, nil, nil, usagef("--queue is not a usable Redis URL: %s", a.mask.Mask(err.Error()))
	}
	rdb := redis.NewClient(opts)
	q, err := forgeredis.NewQueue(rdb, name)
	if err != nil {
		rdb.Close()
		return nil, nil, nil, usagef("--queue-name: %v", err)
	}
	g, err := forgeredis.NewGuard(rdb, name)
	if err != nil {
		rdb.Close()
		return nil, nil, nil, usagef("--queue-name: %v", err)
	}
	return rdb, q, g, nil
}

// queueFlags adds --queue-name to cmd.
func queueNameFlag(cmd *cobra.Command, name *string) {
	cmd.Flags().StringVar(name, "queue-name", defaultQueueName, "the `NAME` of the queue in Redis (the same for receivers and workers)")
}

// listenQueue is 'webhook listen --queue': verify, store, answer 202 (500
// when Redis fails, 503 when the queue is full).
func (a *app) listenQueue(secret, addr, queueURL, name string) error {
	rdb, q, _, err := a.openQueue(queueURL, name)
	if err != nil {
		return err
	}
	defer rdb.Close()
	p, err := webhook.NewParser(webhook.WithSecret(secret))
	if err != nil {
		return err
	}
	var mu sync.Mutex
	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q), webhook.WithErrorFunc(func(r *http.Request, err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(a.stderr, "delivery from %s: %s\n", r.RemoteAddr, oneLine(err.Error()))
	}))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := listenServer(a.ctx, h)
	fmt.Fprintf(a.stderr, "listening for deliveries on http://%s/, storing them in queue %s (Ctrl-C to stop)\n", ln.Addr(), name)
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

const webhookWorkLong = `Run CMD (with sh -c) once for every delivery stored by 'forgego webhook
listen --queue', at least once each: the payload JSON on its stdin, and in
its environment FORGEJO_DELIVERY (the delivery ID), FORGEJO_EVENT_TYPE and
FORGEJO_EVENT_ACTION (empty for events without one). Exit status 0 completes
the delivery; anything else retries it with backoff (1 s doubling, jittered),
and after --max-attempts it becomes a dead letter ('forgego webhook
dead-letters list').

A delivery ID stored twice runs once. A worker that dies leaves its
deliveries to the others after --claim-after (the visibility timeout); while
a worker lives it extends the claim on every CMD still running, every third
of --claim-after, so a slow CMD does not run twice. Run any number of
workers on one queue. Ctrl-C (or SIGTERM)
stops taking deliveries and waits up to 30 s for the running ones. It runs
with GOGC=400 unless GOGC is set.`

func (a *app) webhookWorkCmd() *cobra.Command {
	var (
		queueURL, name, command string
		concurrency, attempts   int
		claimAfter              time.Duration
	)
	cmd := &cobra.Command{
		Use:   "work --queue redis://HOST:PORT/DB --exec CMD",
		Short: "Run a command for every stored webhook delivery",
		Long:  webhookWorkLong,
		Example: `  forgego webhook work --queue redis://127.0.0.1:6379/0 --exec './deploy.sh'
  forgego webhook work --queue redis://127.0.0.1:6379/0 --concurrency 4 --exec 'jq .ref >> refs.log'`,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if queueURL == "" || command == "" {
				return usagef("webhook work needs --queue and --exec")
			}
			if concurrency < 1 || attempts < 1 || claimAfter <= 0 {
				return usagef("--concurrency and --max-attempts must be at least 1, --claim-after positive")
			}
			a.receiverGC()
			return a.work(queueURL, name, command, concurrency, attempts, claimAfter)
		}),
	}
	cmd.Flags().StringVar(&queueURL, "queue", "", "the Redis `URL` of the queue (redis://[:PASSWORD@]HOST:PORT/DB)")
	queueNameFlag(cmd, &name)
	cmd.Flags().StringVar(&command, "exec", "", "the `CMD` to run for each delivery, with sh -c")
	cmd.Flags().IntVar(&concurrency, "concurrency", 1, "how many CMDs run at once (`N`)")
	cmd.Flags().IntVar(&attempts, "max-attempts", webhook.DefaultWorkerRetryPolicy().MaxAttempts, "attempts of a delivery (`K`) before it is a dead letter")
	cmd.Flags().DurationVar(&claimAfter, "claim-after", time.Minute, "the visibility timeout (`D`): after it, another worker takes over a delivery whose worker died")
	return cmd
}

func (a *app) work(queueURL, name, command string, concurrency, attempts int, claimAfter time.Duration) error {
	rdb, q, g, err := a.openQueue(queueURL, name)
	if err != nil {
		return err
	}
	defer rdb.Close()
	rt := webhook.NewRouter()
	var mu sync.Mutex // one CMD's output at a time
	out := &lockedWriter{mu: &mu, w: a.stdout}
	errOut := &lockedWriter{mu: &mu, w: a.stderr}
	rt.HandleDefault(func(ctx context.Context, ev webhook.Event) error {
		var s struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(ev.Payload(), &s)
		c := exec.CommandContext(ctx, "sh", "-c", command)
		c.Stdin = bytes.NewReader(ev.Payload())
		c.Env = append(os.Environ(), "FORGEJO_DELIVERY="+ev.DeliveryID(), "FORGEJO_EVENT_TYPE="+string(ev.EventType()),
			"FORGEJO_EVENT_ACTION="+s.Action)
		c.Stdout, c.Stderr = out, errOut
		c.WaitDelay = 5 * time.Second
		return c.Run()
	})
	policy := webhook.DefaultWorkerRetryPolicy()
	policy.MaxAttempts = attempts
	w, err := webhook.NewWorker(q, rt, webhook.WithWorkerGuard(g), webhook.WithConcurrency(concurrency), webhook.WithVisibilityTimeout(claimAfter),
		webhook.WithRetryPolicy(policy), webhook.WithWorkerErrorFunc(func(_ *webhook.StoredDelivery, err error) {
			fmt.Fprintf(errOut, "%s\n", oneLine(err.Error()))
		}))
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "working on queue %s as %s, %d at once (Ctrl-C to stop)\n", name, w.Consumer(), concurrency)
	if err := w.Run(a.ctx); err != nil {
		return err
	}
	return a.ctx.Err()
}

// lockedWriter serializes the writes of concurrent commands.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

const deadLettersListLong = `List the deliveries workers gave up on, oldest first: one line each with
the delivery ID, the event type, the attempts, when it was given up on and
why (with --json, one JSON object per line: id, the dead letter's entry ID
in Redis; delivery, event, attempts, at, reason).

An entry of the dead-letter stream that cannot be read as a delivery (changed
by hand, written by another program, or stored garbage a worker gave up on)
does not hide the others: it is named on stderr as 'ENTRY-ID: unreadable:
WHY' (with --json, as a line {"id":"ENTRY-ID","unreadable":"WHY"} on stdout),
and after the listing the command exits 1 with one line saying how many were
unreadable. Requeue cannot run an unreadable entry: there is nothing to
deliver. To remove one: redis-cli XDEL 'forgego:webhook:{NAME}:dead' ENTRY-ID.`

const deadLettersRequeueLong = `Move dead letters back to the queue, to run again as new deliveries (their
attempts counted from 1). Name each by its delivery ID (of a delivery given up
on twice, that is the later dead letter) or by the entry ID that
'dead-letters list --json' shows.

Every readable one named is requeued; each ID that is not a dead letter, or is
an unreadable one, is named on stderr, and the command then exits 1 with one
line saying how many were not requeued.`

func (a *app) webhookDeadLettersCmd() *cobra.Command {
	cmd := groupCmd("dead-letters", "List and re-queue the deliveries workers gave up on")
	var queueURL, name string
	var limit int
	list := &cobra.Command{
		Use:   "list --queue redis://HOST:PORT/DB",
		Short: "List the dead letters, oldest first",
		Long:  deadLettersListLong,
		Args:  noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if queueURL == "" {
				return usagef("dead-letters list needs --queue")
			}
			rdb, q, _, err := a.openQueue(queueURL, name)
			if err != nil {
				return err
			}
			defer rdb.Close()
			dls, err := q.DeadLetters(a.ctx, limit)
			if err != nil {
				return err
			}
			var unreadable []string
			for _, dl := range dls {
				if dl.Err != nil {
					unreadable = append(unreadable, dl.ID)
					if err := a.printUnreadable(dl); err != nil {
						return err
					}
					continue
				}
				if a.g.json {
					line, err := json.Marshal(struct {
						ID       string    `json:"id"`
						Delivery string    `json:"delivery"`
						Event    string    `json:"event"`
						Attempts int       `json:"attempts"`
						At       time.Time `json:"at"`
						Reason   string    `json:"reason"`
					}{dl.ID, dl.Delivery.ID, string(dl.Delivery.EventType), dl.Attempts, dl.At.UTC(), dl.Reason})
					if err != nil {
						return err
					}
					fmt.Fprintf(a.stdout, "%s\n", line)
					continue
				}
				fmt.Fprintf(a.stdout, "%s  %s  %d attempts  %s  %s\n", dl.Delivery.ID, dl.Delivery.EventType, dl.Attempts,
					dl.At.UTC().Format(time.RFC3339), oneLine(dl.Reason))
			}
			if len(dls) == 0 && !a.g.json {
				fmt.Fprintln(a.stderr, "no dead letters")
			}
			if len(unreadable) > 0 {
				return fmt.Errorf("%d of %d dead letters unreadable: %s", len(unreadable), len(dls), strings.Join(unreadable, ", "))
			}
			return nil
		}),
	}
	list.Flags().IntVar(&limit, "limit", 0, "list at most `N` (0: all), unreadable ones included")
	requeue := &cobra.Command{
		Use:   "requeue --queue redis://HOST:PORT/DB ID...",
		Short: "Move dead letters back to the queue, to run again",
		Long:  deadLettersRequeueLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if queueURL == "" {
				return usagef("dead-letters requeue needs --queue")
			}
			rdb, q, _, err := a.openQueue(queueURL, name)
			if err != nil {
				return err
			}
			defer rdb.Close()
			var failed []string
			for _, id := range args {
				id = strings.TrimSpace(id)
				err := q.Requeue(a.ctx, id)
				var ue *webhook.UnreadableEntryError
				switch {
				case err == nil:
					fmt.Fprintf(a.stderr, "%s: requeued\n", id)
					continue
				case errors.Is(err, webhook.ErrNotDead):
					fmt.Fprintf(a.stderr, "%s: not a dead letter\n", id)
				case errors.As(err, &ue):
					if ue.ID == id {
						fmt.Fprintf(a.stderr, "%s: unreadable: %s\n", id, oneLine(ue.Reason))
					} else {
						fmt.Fprintf(a.stderr, "%s: unreadable (entry %s): %s\n", id, ue.ID, oneLine(ue.Reason))
					}
				default:
					return err
				}
				failed = append(failed, id)
			}
			if len(failed) > 0 {
				return fmt.Errorf("%d of %d not requeued: %s", len(failed), len(args), strings.Join(failed, ", "))
			}
			return nil
		}),
	}
	for _, c := range []*cobra.Command{list, requeue} {
		c.Flags().StringVar(&queueURL, "queue", "", "the Redis `URL` of the queue (redis://[:PASSWORD@]HOST:PORT/DB)")
		queueNameFlag(c, &name)
		cmd.AddCommand(c)
	}
	return cmd
}

// printUnreadable names a dead letter that could not be read: on stderr,
// or with --json as a line of its own on stdout.
func (a *app) printUnreadable(dl webhook.DeadLetter) error {
	why := dl.Err.Error()
	var ue *webhook.UnreadableEntryError
	if errors.As(dl.Err, &ue) {
		why = ue.Reason
	}
	why = oneLine(why)
	if !a.g.json {
		fmt.Fprintf(a.stderr, "%s: unreadable: %s\n", dl.ID, why)
		return nil
	}
	line, err := json.Marshal(struct {
		ID         string `json:"id"`
		Unreadable string `json:"unreadable"`
	}{dl.ID, why})
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s\n", line)
	return nil
}

// receiverGCPercent is the GOGC that webhook listen and work run with
// unless GOGC is set. A receiver's live heap is about 1 MB, so the default
// of 100 collects every hundred or so deliveries, and the deliveries that
// arrive during a collection are the slowest ones: with 400 the p99 from
// request to 2xx at 1 000 deliveries/s on a loopback Redis went from
// 4.1-6.0 ms to 2.4-4.5 ms in three paired runs, for a heap goal of 16 MB
// instead of 4 (docs/performance.md).
const receiverGCPercent = 400

// receiverGC applies receiverGCPercent unless the user chose a GOGC.
func (a *app) receiverGC() {
	if a.getenv("GOGC") == "" {
		debug.SetGCPercent(receiverGCPercent)
	}
}

package forgejotest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
)

// Webhook deliveries: when its state changes the fake sends the event to
// every matching hook of the repository, of its owning organization and of
// its owning user, signed and shaped as Forgejo 15 sends them (the captures
// in webhook/testdata are the reference). Deliveries go out in order on one
// background sender, so the API call never waits for a receiver and never
// fails because of one; failures are recorded in [Server.Deliveries].
// [Server.WaitDeliveries] waits until everything queued has been sent.

// Delivery is one webhook delivery the fake sent or tried to send.
type Delivery struct {
	ID     string // the X-Forgejo-Delivery UUID
	HookID int64
	URL    string
	// Event is the event type (X-Forgejo-Event-Type): "issues",
	// "issue_comment", "issue_label", "pull_request", "push", "release"...
	Event string
	// Action is the payload's action ("opened", "closed", "label_updated",
	// "published"...), empty for push.
	Action string
	Header http.Header // the request's headers as sent
	Body   []byte      // the request body as sent
	Queued time.Time
	// Done is set once the attempt is over; Status is the receiver's
	// answer (0 when none came), Err why the delivery failed, "" when the
	// receiver answered 2xx.
	Done   bool
	Status int
	Err    string
}

type deliveryQueue struct {
	mu      sync.Mutex
	log     []*Delivery
	queue   []*outgoing
	running bool
	idle    chan struct{} // closed when the queue drains
	ctx     context.Context
	cancel  context.CancelFunc
	client  *http.Client
}

type outgoing struct {
	d       *Delivery
	out     *webhook.Outgoing
	m       string
	payload []byte // the JSON, for a GET hook's query
}

// DefaultDeliveryTimeout is how long the fake waits for a receiver's answer
// before it gives up on a delivery: Forgejo's [webhook] DELIVER_TIMEOUT
// default.
const DefaultDeliveryTimeout = 5 * time.Second

// WithDeliveryTimeout sets how long the fake waits for a receiver's answer
// to a webhook delivery (default [DefaultDeliveryTimeout], Forgejo's
// DELIVER_TIMEOUT). As Forgejo does, a delivery not answered in time is
// recorded as failed ([Delivery].Err) and never retried: a test can show
// that a receiver doing slow work before answering loses the event.
func WithDeliveryTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.deliveryTimeout = d
		}
	}
}

func (s *Server) deliveriesInit() {
	q := &s.dq
	q.ctx, q.cancel = context.WithCancel(context.Background())
	q.client = &http.Client{Timeout: cmp.Or(s.cfg.deliveryTimeout, DefaultDeliveryTimeout)}
}

// Deliveries returns a copy of every delivery so far, in the order the
// events happened.
func (s *Server) Deliveries() []Delivery {
	s.dq.mu.Lock()
	defer s.dq.mu.Unlock()
	out := make([]Delivery, 0, len(s.dq.log))
	for _, d := range s.dq.log {
		cp := *d
		cp.Header = d.Header.Clone()
		cp.Body = bytes.Clone(d.Body)
		out = append(out, cp)
	}
	return out
}

// WaitDeliveries blocks until every delivery queued so far has been
// attempted, or ctx ends.
func (s *Server) WaitDeliveries(ctx context.Context) error {
	s.dq.mu.Lock()
	if !s.dq.running {
		s.dq.mu.Unlock()
		return nil
	}
	ch := s.dq.idle
	s.dq.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) enqueue(o *outgoing) {
	q := &s.dq
	q.mu.Lock()
	defer q.mu.Unlock()
	q.log = append(q.log, o.d)
	q.queue = append(q.queue, o)
	if !q.running {
		q.running = true
		q.idle = make(chan struct{})
		go s.sendLoop()
	}
}

func (s *Server) sendLoop() {
	q := &s.dq
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.running = false
			close(q.idle)
			q.mu.Unlock()
			return
		}
		o := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()
		status, errMsg := s.send(o)
		q.mu.Lock()
		o.d.Done, o.d.Status, o.d.Err = true, status, errMsg
		q.mu.Unlock()
	}
}

func (s *Server) send(o *outgoing) (int, string) {
	q := &s.dq
	req, err := o.out.NewRequest(q.ctx, o.d.URL)
	if err != nil {
		return 0, err.Error()
	}
	if o.m == http.MethodGet {
		// As Forgejo: no body, no Content-Type, the payload in the query
		// next to the hook URL's own parameters, the same other headers.
		vals := req.URL.Query()
		vals["payload"] = []string{string(o.payload)}
		req.URL.RawQuery = vals.Encode()
		req.Method, req.Body, req.GetBody, req.ContentLength = http.MethodGet, nil, nil, 0
		req.Header.Del("Content-Type")
	} else if o.m != "" && o.m != "POST" {
		req.Method = o.m
	}
	resp, err := q.client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, "the receiver answered " + resp.Status
	}
	return resp.StatusCode, ""
}

// hookWants reports whether a hook subscribed to event type t, as Forgejo
// reads its events: "issues" and "pull_request" also switch on their
// sub-events, "pull_request_review" the three review kinds.
func hookWants(h *hook, t webhook.EventType) bool {
	ev := string(t)
	for _, e := range h.events {
		switch {
		case e == "*" || e == ev:
			return true
		case e == "issues" && (ev == "issue_assign" || ev == "issue_label" || ev == "issue_milestone" || ev == "issue_comment"):
			return true
		case e == "pull_request" && strings.HasPrefix(ev, "pull_request_"):
			return true
		case e == "pull_request_review" && strings.HasPrefix(ev, "pull_request_review_") && ev != "pull_request_review_request":
			return true
		}
	}
	return false
}

func branchMatches(filter, branch string) bool {
	if filter == "" || filter == "*" {
		return true
	}
	for _, f := range strings.Split(strings.Trim(filter, "{}"), ",") {
		if ok, _ := path.Match(strings.TrimSpace(f), branch); ok {
			return true
		}
	}
	return false
}

// hooksFor lists the active hooks that receive t for r.
func hooksFor(r *repo, t webhook.EventType, branch string) []*hook {
	var out []*hook
	for _, hs := range [][]*hook{r.hooks, r.owner.hooks} {
		for _, h := range hs {
			if h.active && hookWants(h, t) && (branch == "" || branchMatches(h.branchFilter, branch)) {
				out = append(out, h)
			}
		}
	}
	return out
}

// emit sends event t with payload to every hook of r that wants it.
func (s *Server) emit(c *call, r *repo, t webhook.EventType, branch string, payload any) {
	hs := hooksFor(r, t, branch)
	if len(hs) > 0 {
		s.deliverTo(c, hs, r, t, payload)
	}
}

// deliverTo queues payload (rendered now, under the server's lock) for hs.
func (s *Server) deliverTo(c *call, hs []*hook, r *repo, t webhook.EventType, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		panic("forgejotest: cannot encode a payload: " + err.Error())
	}
	var action struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(data, &action)
	for _, h := range hs {
		if h.kind != "forgejo" && h.kind != "gitea" && h.kind != "gogs" {
			continue // the fake speaks only Forgejo's own payload format
		}
		id := uuidFrom(fakeSHA("delivery", strconv.FormatInt(h.id, 10), strconv.FormatInt(c.st.id("delivery"), 10)))
		out := webhook.Build(t, data, webhook.BuildOptions{Secret: h.secret, Form: h.contentType == "form", DeliveryID: id, Authorization: h.authorization})
		d := &Delivery{ID: id, HookID: h.id, URL: h.url, Event: string(t), Action: action.Action,
			Header: out.HTTPHeader(), Body: out.Body, Queued: c.now}
		s.enqueue(&outgoing{d: d, out: out, m: h.method, payload: data})
	}
}

// payloadView renders as Forgejo does in a payload: the repository as its
// owner sees it, the sender as themself.
func (c *call) payloadView() view {
	v := c.v
	v.payload = true
	return v
}

func (c *call) sender() *wUser {
	v := c.v
	v.viewer = c.user
	return v.user(c.user)
}

type wIssuesPayload struct {
	Action     string         `json:"action"`
	Number     int64          `json:"number"`
	Changes    map[string]any `json:"changes,omitempty"`
	Issue      *wIssue        `json:"issue"`
	Repository *wRepo         `json:"repository"`
	Sender     *wUser         `json:"sender"`
	CommitID   string         `json:"commit_id"`
}

type wPullPayload struct {
	Action            string         `json:"action"`
	Number            int64          `json:"number"`
	Changes           map[string]any `json:"changes,omitempty"`
	PullRequest       *wPull         `json:"pull_request"`
	RequestedReviewer *wUser         `json:"requested_reviewer"`
	Repository        *wRepo         `json:"repository"`
	Sender            *wUser         `json:"sender"`
	CommitID          string         `json:"commit_id"`
	Review            any            `json:"review"`
}

type wCommentPayload struct {
	Action      string         `json:"action"`
	Issue       *wIssue        `json:"issue"`
	PullRequest *wPull         `json:"pull_request,omitempty"`
	Comment     *wComment      `json:"comment"`
	Changes     map[string]any `json:"changes,omitempty"`
	Repository  *wRepo         `json:"repository"`
	Sender      *wUser         `json:"sender"`
	IsPull      bool           `json:"is_pull"`
}

// emitIssue sends an issues/issue_label/... event (or its pull_request
// counterpart for a pull request) for is.
func (s *Server) emitIssue(c *call, is *issue, kind, action string, changes map[string]any) {
	v := c.payloadView()
	r := is.repo
	if is.pull == nil {
		t := webhook.EventType(map[string]string{"": "issues", "label": "issue_label", "assign": "issue_assign", "milestone": "issue_milestone"}[kind])
		s.emit(c, r, t, "", &wIssuesPayload{Action: action, Number: is.number, Changes: changes, Issue: v.issue(is),
			Repository: v.repo(r, 0), Sender: c.sender()})
		return
	}
	t := webhook.EventType(map[string]string{"": "pull_request", "label": "pull_request_label", "assign": "pull_request_assign", "milestone": "pull_request_milestone"}[kind])
	s.emit(c, r, t, "", &wPullPayload{Action: action, Number: is.number, Changes: changes, PullRequest: v.pull(is, false),
		Repository: v.repo(r, 0), Sender: c.sender()})
}

func (s *Server) emitComment(c *call, cm *comment, action string, changes map[string]any) {
	v := c.payloadView()
	is := cm.issue
	p := &wCommentPayload{Action: action, Issue: v.issue(is), Comment: v.comment(cm), Changes: changes,
		Repository: v.repo(is.repo, 0), Sender: c.sender(), IsPull: is.pull != nil}
	t := webhook.EventIssueComment
	if is.pull != nil {
		t, p.PullRequest = webhook.EventPullRequestComment, v.pull(is, false)
	}
	s.emit(c, is.repo, t, "", p)
}

type wReleasePayload struct {
	Action     string    `json:"action"`
	Release    *wRelease `json:"release"`
	Repository *wRepo    `json:"repository"`
	Sender     *wUser    `json:"sender"`
}

func (s *Server) emitRelease(c *call, rel *release, action string) {
	v := c.payloadView()
	s.emit(c, rel.repo, webhook.EventRelease, "", &wReleasePayload{Action: action, Release: v.release(rel), Repository: v.repo(rel.repo, 0), Sender: c.sender()})
}

type wRepoPayload struct {
	Action       string `json:"action"`
	Repository   *wRepo `json:"repository"`
	Organization *wUser `json:"organization"`
	Sender       *wUser `json:"sender"`
}

// emitRepo tells the owner's hooks (a new repository has none of its own).
func (s *Server) emitRepo(c *call, r *repo, action string) {
	v := c.payloadView()
	var org *wUser
	if r.owner.org != nil {
		org = v.user(r.owner)
	}
	var hs []*hook
	for _, h := range r.owner.hooks {
		if h.active && hookWants(h, webhook.EventRepository) {
			hs = append(hs, h)
		}
	}
	if len(hs) > 0 {
		s.deliverTo(c, hs, r, webhook.EventRepository, &wRepoPayload{Action: action, Repository: v.repo(r, 0), Organization: org, Sender: c.sender()})
	}
}

type wPushPayload struct {
	Ref        string            `json:"ref"`
	Before     string            `json:"before"`
	After      string            `json:"after"`
	CompareURL string            `json:"compare_url"`
	Commits    []*wPayloadCommit `json:"commits"`
	TotalCount int               `json:"total_commits"`
	HeadCommit *wPayloadCommit   `json:"head_commit"`
	Repository *wRepo            `json:"repository"`
	Pusher     *wUser            `json:"pusher"`
	Sender     *wUser            `json:"sender"`
}

func (c *call) pushPayload(r *repo, b *branch, before string, cm *commit, added, removed, modified []string) *wPushPayload {
	v := c.payloadView()
	full := r.owner.login + "/" + r.name
	p := &wPushPayload{Ref: "refs/heads/" + b.name, Before: cmp0(before), After: cmp0(b.sha),
		Commits: []*wPayloadCommit{}, Repository: v.repo(r, 0), Pusher: c.sender(), Sender: c.sender()}
	if before != "" && b.sha != "" {
		p.CompareURL = v.html("/" + full + "/compare/" + before + "..." + b.sha)
	}
	if cm != nil {
		pc := v.payloadCommit(r, &branch{name: b.name, sha: cm.sha, message: cm.message, author: cm.author, when: cm.when})
		email := cm.author.login + "@example.com"
		pc.Author.Email, pc.Committer.Email = email, email
		pc.Added, pc.Removed, pc.Modified = nilIfEmpty(added), nilIfEmpty(removed), nilIfEmpty(modified)
		pc.Verification = nil // Forgejo 15 sends null in a push's commits, unlike the API's commits
		p.Commits, p.TotalCount, p.HeadCommit = []*wPayloadCommit{pc}, 1, pc
	}
	return p
}

func cmp0(sha string) string {
	if sha == "" {
		return strings.Repeat("0", 40)
	}
	return sha
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return []string{}
	}
	return slices.Clone(s)
}

func (s *Server) emitPush(c *call, r *repo, b *branch, before string, cm *commit, added, removed, modified []string) {
	s.startPushRuns(c, r, b, cm, c.pushPayload(r, b, before, cm, added, removed, modified)) // h_actions_push.go
	if hooksFor(r, webhook.EventPush, b.name) == nil {
		return
	}
	s.emit(c, r, webhook.EventPush, b.name, c.pushPayload(r, b, before, cm, added, removed, modified))
}

func eventType(s string) webhook.EventType { return webhook.EventType(s) }

type wCreatePayload struct {
	SHA        string `json:"sha"`
	Ref        string `json:"ref"`
	RefType    string `json:"ref_type"`
	Repository *wRepo `json:"repository"`
	Sender     *wUser `json:"sender"`
}

// emitTagCreated sends what Forgejo 15 sends when a tag is made, through
// the tags API or by a release that creates its tag: a push of the tag (no
// commits, before all zeros, the tagged commit as head_commit), then a
// create (ref_type tag; a hook of type gitea gets the short name as ref).
func (s *Server) emitTagCreated(c *call, r *repo, t *tag) {
	v := c.payloadView()
	zero := strings.Repeat("0", 40)
	p := &wPushPayload{Ref: "refs/tags/" + t.name, Before: zero, After: t.sha, Commits: []*wPayloadCommit{},
		CompareURL: v.html("/" + r.owner.login + "/" + r.name + "/compare/" + zero + "..." + t.sha),
		Repository: v.repo(r, 0), Pusher: c.sender(), Sender: c.sender()}
	if cm := r.commits[t.sha]; cm != nil && cm.author != nil {
		hc := v.payloadCommit(r, &branch{name: t.name, sha: cm.sha, message: cm.message, author: cm.author, when: cm.when})
		email := cm.author.login + "@example.com"
		hc.Author.Email, hc.Committer.Email = email, email
		hc.Verification, hc.Added, hc.Removed, hc.Modified = nil, []string{}, []string{}, []string{}
		p.HeadCommit = hc
	}
	s.emit(c, r, webhook.EventPush, "", p)
	var full, short []*hook
	for _, h := range hooksFor(r, webhook.EventCreate, "") {
		if h.kind == "gitea" {
			short = append(short, h)
		} else {
			full = append(full, h)
		}
	}
	create := func(ref string) *wCreatePayload {
		return &wCreatePayload{SHA: t.sha, Ref: ref, RefType: "tag", Repository: v.repo(r, 0), Sender: c.sender()}
	}
	if len(full) > 0 {
		s.deliverTo(c, full, r, webhook.EventCreate, create("refs/tags/"+t.name))
	}
	if len(short) > 0 {
		s.deliverTo(c, short, r, webhook.EventCreate, create(t.name))
	}
}

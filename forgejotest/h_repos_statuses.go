package forgejotest

import (
	"net/http"
	"slices"
	"time"
)

// Commit statuses, as CI systems report them: created on a commit, listed
// for a commit id or a ref, and combined (the latest of each context, the
// worst state of them).

type commitStatus struct {
	id          int64
	sha         string
	state       string
	context     string
	description string
	targetURL   string
	creator     *user
	created     time.Time
}

type wCommitStatus struct {
	ID          int64  `json:"id"`
	Status      string `json:"status"`
	TargetURL   string `json:"target_url"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Context     string `json:"context"`
	Creator     *wUser `json:"creator"`
	Created     string `json:"created_at"`
	Updated     string `json:"updated_at"`
}

type wCombinedStatus struct {
	State      string           `json:"state"`
	SHA        string           `json:"sha"`
	TotalCount int              `json:"total_count"`
	Statuses   []*wCommitStatus `json:"statuses"`
	Repository *wRepo           `json:"repository"`
	CommitURL  string           `json:"commit_url"`
	URL        string           `json:"url"`
}

func (v view) commitStatus(r *repo, st *commitStatus) *wCommitStatus {
	return &wCommitStatus{
		ID: st.id, Status: st.state, TargetURL: st.targetURL, Description: st.description,
		URL: v.api(repoPath(r) + "/statuses/" + st.sha), Context: st.context, Creator: v.user(st.creator),
		Created: ts(st.created), Updated: ts(st.created),
	}
}

// statusRank is Forgejo's order of states, worst first: the combined state
// is the worst of the latest per context.
var statusRank = map[string]int{"error": 0, "failure": 1, "warning": 2, "pending": 3, "success": 4}

func hCreateStatus(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		State       string `json:"state"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if !c.decode(&b) {
		return
	}
	// The state is not validated (Forgejo 15 and Gitea 1.27 store any); a
	// commit that is not there is a 404 whose message is the sha on
	// Forgejo 15 (Gitea 1.27: a 500 "GetCommit[sha]: object does not
	// exist …").
	sha, ok := r.commitOf(c.p["sha"])
	if !ok {
		c.fail(http.StatusNotFound, c.p["sha"])
		return
	}
	st := &commitStatus{id: c.st.id("status"), sha: sha, state: b.State, context: b.Context, description: b.Description,
		targetURL: b.TargetURL, creator: c.user, created: c.now}
	r.statuses = append(r.statuses, st)
	c.json(http.StatusCreated, c.v.commitStatus(r, st))
}

// statusSHA is the commit a {sha} or {ref} names. As Forgejo's
// ResolveRefOrSha, a ref that resolves to nothing is kept as it is (and
// has no statuses; Gitea 1.27 answers 404).
func (c *call) statusSHA(r *repo, param string) string {
	if sha, ok := r.commitOf(c.p[param]); ok {
		return sha
	}
	return c.p[param]
}

func hListStatuses(param string) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		sha := c.statusSHA(r, param)
		var sts []*commitStatus
		for _, st := range r.statuses {
			if st.sha == sha && (c.q.Get("state") == "" || st.state == c.q.Get("state")) {
				sts = append(sts, st)
			}
		}
		switch c.q.Get("sort") {
		case "oldest", "leastupdate", "leastindex":
		default: // newest first
			slices.Reverse(sts)
		}
		out := []*wCommitStatus{}
		for _, st := range paginate(c, sts, pageLinked) {
			out = append(out, c.v.commitStatus(r, st))
		}
		c.json(http.StatusOK, out)
	}
}

func hCombinedStatus(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha := c.statusSHA(r, "ref")
	latest := map[string]*commitStatus{}
	for _, st := range r.statuses {
		if st.sha == sha {
			latest[st.context] = st
		}
	}
	if len(latest) == 0 {
		// Forgejo answers an empty CombinedStatus (Gitea 1.27: "pending"
		// with the sha and the repository).
		c.json(http.StatusOK, &wCombinedStatus{})
		return
	}
	var sts []*commitStatus
	for _, st := range latest {
		sts = append(sts, st)
	}
	slices.SortFunc(sts, func(a, b *commitStatus) int { return int(a.id - b.id) })
	total := len(sts)
	state := ""
	for _, st := range sts {
		if state == "" || rankOf(st.state) < rankOf(state) {
			state = st.state
		}
	}
	// Forgejo 15 leaves url and commit_url empty (its ToCombinedStatus
	// sets neither); Gitea 1.27 points them at the commit and its
	// /status.
	out := &wCombinedStatus{State: state, SHA: sha, TotalCount: total, Repository: c.v.repo(r, 0)}
	for _, st := range paginate(c, sts, pageTotalOnly) {
		out.Statuses = append(out.Statuses, c.v.commitStatus(r, st))
	}
	c.json(http.StatusOK, out)
}

func rankOf(state string) int {
	if n, ok := statusRank[state]; ok {
		return n
	}
	return 5
}

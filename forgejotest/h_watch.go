package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Issue subscriptions, repository watches, pins, the users a repository
// offers as assignees and reviewers, and the issue timeline.

type wWatchInfo struct {
	Subscribed    bool   `json:"subscribed"`
	Ignored       bool   `json:"ignored"`
	Reason        any    `json:"reason"`
	CreatedAt     string `json:"created_at"`
	URL           string `json:"url"`
	RepositoryURL string `json:"repository_url"`
}

// ---- repository watches

// watchers is r's watchers. A repository of a user starts watched by its
// owner (Forgejo makes the creator watch what they create); one of an
// organization starts unwatched, as the fake does not know who created it.
func (st *state) watchers(r *repo) []*user {
	m := &st.more
	if !m.watchInit[r] {
		if m.watchInit == nil {
			m.watchInit, m.repoWatch, m.watchSince = map[*repo]bool{}, map[*repo][]*user{}, map[*repo]map[*user]time.Time{}
		}
		m.watchInit[r] = true
		if r.owner.org == nil {
			m.repoWatch[r] = []*user{r.owner}
			m.watchSince[r] = map[*user]time.Time{r.owner: r.created}
		}
	}
	return m.repoWatch[r]
}

// watchCount is r's watchers_count.
func (st *state) watchCount(r *repo) int { return len(st.watchers(r)) }

func (st *state) setWatch(r *repo, u *user, on bool, now time.Time) {
	ws := st.watchers(r)
	has := slices.Contains(ws, u)
	switch {
	case on && !has:
		st.more.repoWatch[r] = append(ws, u)
		if st.more.watchSince[r] == nil {
			st.more.watchSince[r] = map[*user]time.Time{}
		}
		st.more.watchSince[r][u] = now
	case !on && has:
		st.more.repoWatch[r] = removeUser(ws, u)
	}
}

func (c *call) repoWatchInfo(r *repo) *wWatchInfo {
	return &wWatchInfo{
		Subscribed: true, CreatedAt: ts(r.created), URL: c.v.api(repoPath(r) + "/subscription"),
		RepositoryURL: c.v.api(repoPath(r)),
	}
}

// hCheckWatch answers the caller's watch: 200 with a WatchInfo, or 404 when
// not watching.
func hCheckWatch(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if !slices.Contains(c.st.watchers(r), c.user) {
		c.notFound()
		return
	}
	c.json(http.StatusOK, c.repoWatchInfo(r))
}

// hWatch watches (200 with the WatchInfo) or unwatches (204); both are
// idempotent.
func hWatch(on bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		c.st.setWatch(r, c.user, on, c.now)
		if on {
			c.json(http.StatusOK, c.repoWatchInfo(r))
			return
		}
		c.empty(http.StatusNoContent)
	}
}

func hListWatchers(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.users(paginate(c, c.st.watchers(r), pageLoneLimitAll)))
	}
}

// hListWatched lists the repositories a user watches, in the order the
// repositories were created: private ones only to the user themself, as
// Forgejo's GetWatchedRepos (not even to a site administrator).
func hListWatched(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var rs []*repo
		for _, r := range c.st.reposInOrder {
			if (!r.private || c.user == u && canRead(u, r)) && slices.Contains(c.st.watchers(r), u) {
				rs = append(rs, r)
			}
		}
		c.json(http.StatusOK, c.repos(paginate(c, rs, pageTotalOnly)))
	}
}

// ---- issue subscriptions

// explicitWatch is u's own choice on is, if they made one.
func (st *state) explicitWatch(is *issue, u *user) (on, set bool) {
	on, set = st.more.issueWatch[is][u]
	return on, set
}

// subscribed is Forgejo's CheckIssueWatch: an explicit choice wins;
// otherwise watching the repository or taking part in the issue (its
// poster, a commenter) subscribes.
func (st *state) subscribed(is *issue, u *user) bool {
	if on, set := st.explicitWatch(is, u); set {
		return on
	}
	if slices.Contains(st.watchers(is.repo), u) || is.poster == u {
		return true
	}
	return slices.ContainsFunc(is.comments, func(cm *comment) bool { return cm.poster == u })
}

// hIssueSubscribers lists the users subscribed explicitly, as Forgejo's
// GetIssueWatchers (implicit subscribers are not listed).
func hIssueSubscribers(c *call) {
	_, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	var us []*user
	for _, u := range c.st.usersInOrder {
		if on, set := c.st.explicitWatch(is, u); set && on {
			us = append(us, u)
		}
	}
	c.json(http.StatusOK, c.users(paginate(c, us, pageLoneLimitAll)))
}

func hCheckIssueSubscription(c *call) {
	r, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	on := c.st.subscribed(is, c.user)
	c.json(http.StatusOK, &wWatchInfo{
		Subscribed: on, Ignored: !on, CreatedAt: ts(is.created),
		URL:           c.v.api(repoPath(r) + "/issues/" + strconv.FormatInt(is.number, 10) + "/subscriptions"),
		RepositoryURL: c.v.api(repoPath(r)),
	})
}

// hSetIssueSubscription subscribes or unsubscribes a user: only the user
// themself or a site administrator may. 201 when it changed, 200 when it
// already was so.
func hSetIssueSubscription(on bool) func(c *call) {
	return func(c *call) {
		_, is := c.pathRepoIssue()
		if is == nil {
			return
		}
		u := c.st.user(c.p["user"])
		if u == nil {
			c.notFound()
			return
		}
		if u != c.user && !c.user.isAdmin {
			c.fail(http.StatusForbidden, c.user.login+" is not permitted to change subscriptions for "+u.login)
			return
		}
		if c.st.subscribed(is, u) == on {
			c.empty(http.StatusOK)
			return
		}
		m := &c.st.more
		if m.issueWatch == nil {
			m.issueWatch = map[*issue]map[*user]bool{}
		}
		if m.issueWatch[is] == nil {
			m.issueWatch[is] = map[*user]bool{}
		}
		m.issueWatch[is][u] = on
		c.empty(http.StatusCreated)
	}
}

// ---- pins

// maxPinned is Forgejo's [repository.issue] MAX_PINNED default: per
// repository, issues and pull requests counted apart.
const maxPinned = 3

func (st *state) pinOrder(is *issue) int { return st.more.pins[is] }

// pinned lists r's pinned issues (or pull requests) by pin order.
func (st *state) pinned(r *repo, pulls bool) []*issue {
	var out []*issue
	for _, is := range r.issues {
		if is != nil && (is.pull != nil) == pulls && st.more.pins[is] > 0 {
			out = append(out, is)
		}
	}
	slices.SortFunc(out, func(a, b *issue) int { return cmp.Compare(st.more.pins[a], st.more.pins[b]) })
	return out
}

// renumber gives the pinned issues the orders 1..n in the order given.
func (st *state) renumber(list []*issue) {
	for i, is := range list {
		st.more.pins[is] = i + 1
	}
}

func hPin(on bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil || !c.canAdminRepo(r) {
			return
		}
		is := c.pathIssue(r)
		if is == nil {
			return
		}
		m := &c.st.more
		if m.pins == nil {
			m.pins = map[*issue]int{}
		}
		pinned := m.pins[is] > 0
		switch {
		case on && !pinned:
			list := c.st.pinned(r, is.pull != nil)
			if len(list) >= maxPinned {
				// Forgejo's PinIssue handler answers this error as a 500.
				c.internalError("the max number of pinned issues has been readched")
				return
			}
			c.st.renumber(append(list, is))
			c.st.addEvent(is, "pin", c.user, "", nil, c.now)
		case !on && pinned:
			list := slices.DeleteFunc(c.st.pinned(r, is.pull != nil), func(x *issue) bool { return x == is })
			delete(m.pins, is)
			c.st.renumber(list)
			c.st.addEvent(is, "unpin", c.user, "", nil, c.now)
		}
		c.empty(http.StatusNoContent)
	}
}

// hMovePin moves a pinned issue to a position (clamped to the last); an
// issue that is not pinned is left alone, 204 all the same.
func hMovePin(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	pos, _ := strconv.Atoi(c.p["position"])
	if c.st.more.pins[is] == 0 {
		c.empty(http.StatusNoContent)
		return
	}
	if pos < 1 {
		c.internalError("The Position can't be lower than 1")
		return
	}
	list := slices.DeleteFunc(c.st.pinned(r, is.pull != nil), func(x *issue) bool { return x == is })
	pos = min(pos, len(list)+1)
	c.st.renumber(slices.Insert(list, pos-1, is))
	c.empty(http.StatusNoContent)
}

func hListPinned(pulls bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		list := c.st.pinned(r, pulls)
		if pulls {
			out := make([]*wPull, 0, len(list))
			for _, is := range list {
				out = append(out, c.v.pull(is, false))
			}
			c.json(http.StatusOK, out)
			return
		}
		out := make([]*wIssue, 0, len(list))
		for _, is := range list {
			out = append(out, c.v.issue(is))
		}
		c.json(http.StatusOK, out)
	}
}

func hNewPinAllowed(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	c.json(http.StatusOK, struct {
		Issues       bool `json:"issues"`
		PullRequests bool `json:"pull_requests"`
	}{len(c.st.pinned(r, false)) < maxPinned, len(c.st.pinned(r, true)) < maxPinned})
}

// ---- assignees and reviewers

// granted is who holds an access grant on r, as Forgejo's access table:
// collaborators and members of teams given r, with their level (the owner
// of a user's repository has none: ownership is not a grant).
func granted(r *repo) map[*user]int {
	out := map[*user]int{}
	for _, cl := range r.collaborators {
		out[cl.u] = max(out[cl.u], accessOf(cl.perm))
	}
	if o := r.owner.org; o != nil {
		for _, t := range o.teams {
			if t.includesAll || slices.Contains(t.repos, r) {
				for _, u := range t.members {
					out[u] = max(out[u], accessOf(t.permission))
				}
			}
		}
	}
	return out
}

// byName orders users as Forgejo's GetOrderByName: by login.
func byName(us []*user) []*user {
	slices.SortFunc(us, func(a, b *user) int { return strings.Compare(strings.ToLower(a.login), strings.ToLower(b.login)) })
	return us
}

// hAssignees lists who may be assigned: whoever holds write access, and
// the owner of a user's repository.
func hAssignees(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var us []*user
	for u, a := range granted(r) {
		if a >= accessWrite {
			us = append(us, u)
		}
	}
	us = byName(us)
	// As Forgejo's GetRepoAssignees, the owner of a user's repository comes
	// last, after the others by name.
	if r.owner.org == nil && !slices.Contains(us, r.owner) {
		us = append(us, r.owner)
	}
	c.json(http.StatusOK, c.users(us))
}

// hReviewers lists who may be asked for a review, as Forgejo's
// GetReviewers: in a public repository anyone with a grant, a watcher or a
// member of the owning organization; in a private one anyone with a grant
// and the owner of a user's repository.
func hReviewers(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	set := map[*user]bool{}
	for u := range granted(r) {
		set[u] = true
	}
	if r.private {
		if r.owner.org == nil {
			set[r.owner] = true
		}
	} else {
		for _, u := range c.st.watchers(r) {
			set[u] = true
		}
		if o := r.owner.org; o != nil {
			for _, u := range o.members {
				set[u] = true
			}
		}
	}
	var us []*user
	for u := range set {
		if u.org == nil {
			us = append(us, u)
		}
	}
	c.json(http.StatusOK, c.users(byName(us)))
}

// ---- the timeline

type wTimelineComment struct {
	ID              int64         `json:"id"`
	Type            string        `json:"type"`
	HTMLURL         string        `json:"html_url"`
	PullRequestURL  string        `json:"pull_request_url"`
	IssueURL        string        `json:"issue_url"`
	User            *wUser        `json:"user"`
	Body            string        `json:"body"`
	CreatedAt       string        `json:"created_at"`
	UpdatedAt       string        `json:"updated_at"`
	OldProjectID    int64         `json:"old_project_id"`
	ProjectID       int64         `json:"project_id"`
	OldMilestone    *wMilestone   `json:"old_milestone"`
	Milestone       *wMilestone   `json:"milestone"`
	TrackedTime     *wTrackedTime `json:"tracked_time"`
	OldTitle        string        `json:"old_title"`
	NewTitle        string        `json:"new_title"`
	OldRef          string        `json:"old_ref"`
	NewRef          string        `json:"new_ref"`
	ReviewID        int64         `json:"review_id"`
	Label           *wLabel       `json:"label"`
	Assignee        *wUser        `json:"assignee"`
	AssigneeTeam    *struct{}     `json:"assignee_team"`
	RemovedAssignee bool          `json:"removed_assignee"`
	ResolveDoer     *wUser        `json:"resolve_doer"`
	DependentIssue  *wIssue       `json:"dependent_issue"`
}

// timelineEntry is a comment or an event, merged by id.
type timelineEntry struct {
	id      int64
	updated time.Time
	w       *wTimelineComment
}

// hTimeline lists an issue's comments and the events the fake records:
// closing and reopening through issueEditIssue, pins, deadlines, tracked
// times and stopwatches. Label, milestone, assignee, title and reference
// events are not recorded. As Forgejo, it pages only when page is set,
// X-Total-Count is the length of the page, and an empty timeline is null.
func hTimeline(c *call) {
	_, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	since, ok := c.timeFilter("since")
	if !ok {
		return
	}
	before, ok := c.timeFilter("before")
	if !ok {
		return
	}
	issueHTML, prHTML := c.v.html(issuePath(is)), ""
	if is.pull != nil {
		issueHTML, prHTML = "", c.v.html(issuePath(is))
	}
	entry := func(id int64, kind string, who *user, body string, created, updated time.Time) *wTimelineComment {
		return &wTimelineComment{
			ID: id, Type: kind, HTMLURL: c.v.html(issuePath(is) + "#issuecomment-" + strconv.FormatInt(id, 10)),
			PullRequestURL: prHTML, IssueURL: issueHTML, User: c.v.user(who), Body: body,
			CreatedAt: ts(created), UpdatedAt: ts(updated),
		}
	}
	var all []timelineEntry
	for _, cm := range is.comments {
		all = append(all, timelineEntry{cm.id, cm.updated, entry(cm.id, "comment", cm.poster, cm.body, cm.created, cm.updated)})
	}
	for _, ev := range c.st.more.events[is] {
		body := ev.content
		if secs, ok := strings.CutPrefix(body, "|"); ok && (ev.kind == "add_time_manual" || ev.kind == "stop_tracking" || ev.kind == "delete_time_manual") {
			// Stored as "|<seconds>", rendered in the old words, as
			// Forgejo's ToTimelineComment does.
			n, _ := strconv.ParseInt(secs, 10, 64)
			body = secToTime(n)
		}
		w := entry(ev.id, ev.kind, ev.doer, body, ev.created, ev.created)
		if ev.time != nil {
			w.TrackedTime = c.v.trackedTime(ev.time)
		}
		all = append(all, timelineEntry{ev.id, ev.created, w})
	}
	slices.SortFunc(all, func(a, b timelineEntry) int { return cmp.Compare(a.id, b.id) })
	var kept []timelineEntry
	for _, e := range all {
		if (since.IsZero() || !e.updated.Before(since)) && (before.IsZero() || !e.updated.After(before)) {
			kept = append(kept, e)
		}
	}
	var out []*wTimelineComment // null when empty, as Forgejo
	for _, e := range paginate(c, kept, pageLoneLimitAll) {
		out = append(out, e.w)
	}
	c.header.Set("X-Total-Count", strconv.Itoa(len(out)))
	c.json(http.StatusOK, out)
}

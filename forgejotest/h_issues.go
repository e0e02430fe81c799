package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Issues: issues, comments, milestones, search, reactions, dependencies,
// subscriptions, pins, assignees and the timeline. Labels are in
// h_issues_labels.go, tracked times and stopwatches in h_issues_times.go,
// issue and comment attachments share the release assets' handlers
// (h_repos_releases.go).

// ---- issues

// timeFilter reads since/before (RFC 3339); a bad value is answered 422
// with Go's parse error, as Forgejo does.
func (c *call) timeFilter(name string) (time.Time, bool) {
	v := c.q.Get(name)
	if v == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		c.fail(http.StatusUnprocessableEntity, err.Error())
		return time.Time{}, false
	}
	return t, true
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func hListIssues(c *call) {
	r := c.pathRepo()
	if r == nil {
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
	state := c.q.Get("state")
	kind := c.q.Get("type")
	labels := splitList(c.q.Get("labels"))
	milestones := splitList(c.q.Get("milestones"))
	text := strings.ToLower(c.q.Get("q"))
	createdBy, assignedBy, mentionedBy := c.q.Get("created_by"), c.q.Get("assigned_by"), c.q.Get("mentioned_by")

	var out []*issue
	for _, is := range r.issues {
		if is == nil || !stateMatches(state, is.closed) {
			continue
		}
		if (kind == "issues" && is.pull != nil) || (kind == "pulls" && is.pull == nil) {
			continue
		}
		if !issueHasLabels(is, labels) || !issueInMilestones(is, milestones) {
			continue
		}
		if !matchesKeyword(is, text) {
			continue
		}
		if createdBy != "" && !strings.EqualFold(is.poster.login, createdBy) {
			continue
		}
		if assignedBy != "" && !slices.ContainsFunc(is.assignees, func(u *user) bool { return strings.EqualFold(u.login, assignedBy) }) {
			continue
		}
		if mentionedBy != "" && !strings.Contains(strings.ToLower(is.body), "@"+strings.ToLower(mentionedBy)) {
			continue
		}
		if (!since.IsZero() && is.updated.Before(since)) || (!before.IsZero() && !is.updated.Before(before)) {
			continue
		}
		out = append(out, is)
	}
	sortIssues(out, c.q.Get("sort"))
	page := paginate(c, out, pageLinked)
	res := make([]*wIssue, 0, len(page))
	for _, is := range page {
		res = append(res, c.v.issue(is))
	}
	c.json(http.StatusOK, res)
}

// stateMatches applies a state filter: "all", "closed", or anything else
// (the default) meaning open.
func stateMatches(filter string, closed bool) bool {
	switch filter {
	case "all":
		return true
	case "closed":
		return closed
	default:
		return !closed
	}
}

func issueHasLabels(is *issue, names []string) bool {
	for _, n := range names {
		if !slices.ContainsFunc(is.labels, func(l *label) bool { return strings.EqualFold(l.name, n) }) {
			return false
		}
	}
	return true
}

func issueInMilestones(is *issue, refs []string) bool {
	if len(refs) == 0 {
		return true
	}
	if is.milestone == nil {
		return false
	}
	for _, ref := range refs {
		if strings.EqualFold(ref, is.milestone.title) || ref == strconv.FormatInt(is.milestone.id, 10) {
			return true
		}
	}
	return false
}

// sortIssues orders as Forgejo's sort parameter says; the default is newest
// first.
func sortIssues(is []*issue, mode string) {
	byNumberDesc := func(a, b *issue) int { return cmp.Compare(b.number, a.number) }
	var f func(a, b *issue) int
	switch mode {
	case "oldest":
		f = func(a, b *issue) int { return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.number, b.number)) }
	case "recentupdate":
		f = func(a, b *issue) int { return cmp.Or(b.updated.Compare(a.updated), byNumberDesc(a, b)) }
	case "leastupdate":
		f = func(a, b *issue) int { return cmp.Or(a.updated.Compare(b.updated), cmp.Compare(a.number, b.number)) }
	case "mostcomment":
		f = func(a, b *issue) int {
			return cmp.Or(cmp.Compare(len(b.comments), len(a.comments)), byNumberDesc(a, b))
		}
	case "leastcomment":
		f = func(a, b *issue) int {
			return cmp.Or(cmp.Compare(len(a.comments), len(b.comments)), byNumberDesc(a, b))
		}
	default:
		f = func(a, b *issue) int { return cmp.Or(b.created.Compare(a.created), byNumberDesc(a, b)) }
	}
	slices.SortStableFunc(is, f)
}

func hGetIssue(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if is := c.pathIssue(r); is != nil {
		c.json(http.StatusOK, c.v.issue(is))
	}
}

type createIssueBody struct {
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	Ref       string    `json:"ref"`
	Assignee  string    `json:"assignee"`
	Assignees []string  `json:"assignees"`
	Labels    []int64   `json:"labels"`
	Milestone int64     `json:"milestone"`
	Closed    bool      `json:"closed"`
	DueDate   time.Time `json:"due_date"`
}

// applyAssignees resolves logins; an unknown one is answered 422.
func (c *call) resolveUsers(logins []string) ([]*user, bool) {
	var out []*user
	for _, l := range logins {
		if strings.TrimSpace(l) == "" {
			continue
		}
		u := c.st.user(l)
		if u == nil {
			c.fail(http.StatusUnprocessableEntity, "user does not exist [name: "+l+"]")
			return nil, false
		}
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out, true
}

func hCreateIssue(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) {
		return
	}
	var body createIssueBody
	if !c.decode(&body) {
		return
	}
	if strings.TrimSpace(body.Title) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Title]: Required")
		return
	}
	var assignees []*user
	if canWrite(c.user, r) {
		logins := body.Assignees
		if body.Assignee != "" {
			logins = append([]string{body.Assignee}, logins...)
		}
		var ok bool
		if assignees, ok = c.resolveUsers(logins); !ok {
			return
		}
	}
	is := c.st.addIssue(r, c.user, body.Title, body.Body, c.now)
	is.ref, is.dueDate, is.assignees = body.Ref, body.DueDate, assignees
	if canWrite(c.user, r) {
		// Labels and milestone need write access; Forgejo ignores them
		// otherwise, and ignores unknown ids.
		for _, id := range body.Labels {
			if l := r.labelByID(id); l != nil {
				is.addLabel(l)
			}
		}
		is.milestone = r.milestoneByID(body.Milestone)
	}
	if body.Closed {
		is.setClosed(true, c.now)
	}
	c.st.notify(is, c.user, nil, c.now)
	c.json(http.StatusCreated, c.v.issue(is))
	c.s.emitIssue(c, is, "", "opened", nil)
}

// canEditIssue: the poster or a writer; others get Forgejo's bare 403.
func (c *call) canEditIssue(is *issue) bool {
	if c.user == is.poster || canWrite(c.user, is.repo) {
		return c.notArchived(is.repo)
	}
	c.empty(http.StatusForbidden)
	return false
}

func hEditIssue(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathIssue(r)
	if is == nil || !c.canEditIssue(is) {
		return
	}
	var body struct {
		Title        *string    `json:"title"`
		Body         *string    `json:"body"`
		Ref          *string    `json:"ref"`
		State        *string    `json:"state"`
		Milestone    *int64     `json:"milestone"`
		Assignee     *string    `json:"assignee"`
		Assignees    []string   `json:"assignees"`
		DueDate      *time.Time `json:"due_date"`
		UnsetDueDate *bool      `json:"unset_due_date"`
	}
	if !c.decode(&body) {
		return
	}
	if body.State != nil && *body.State != "open" && *body.State != "closed" {
		c.fail(http.StatusUnprocessableEntity, "[State]: In")
		return
	}
	if body.State != nil && *body.State == "open" && is.pull != nil && is.pull.merged {
		c.fail(http.StatusConflict, "cannot reopen a merged pull request")
		return
	}
	writer := canWrite(c.user, r)
	if writer && (body.Assignees != nil || body.Assignee != nil) {
		logins := body.Assignees
		if body.Assignee != nil && *body.Assignee != "" {
			logins = append([]string{*body.Assignee}, logins...)
		}
		us, ok := c.resolveUsers(logins)
		if !ok {
			return
		}
		is.assignees = us
	}
	changes := map[string]any{}
	if body.Title != nil && *body.Title != is.title {
		changes["title"] = map[string]string{"from": is.title}
		is.title = *body.Title
	}
	if body.Body != nil && *body.Body != is.body {
		changes["body"] = map[string]string{"from": is.body}
		is.body = *body.Body
	}
	wasClosed := is.closed
	if body.Ref != nil {
		is.ref = *body.Ref
	}
	if writer && body.Milestone != nil {
		is.milestone = r.milestoneByID(*body.Milestone) // 0 or unknown clears it
	}
	if body.DueDate != nil {
		is.dueDate = *body.DueDate
	}
	if body.UnsetDueDate != nil && *body.UnsetDueDate {
		is.dueDate = time.Time{}
	}
	if body.State != nil {
		is.setClosed(*body.State == "closed", c.now)
	}
	is.updated = c.now
	c.json(http.StatusCreated, c.v.issue(is))
	if len(changes) > 0 {
		c.s.emitIssue(c, is, "", "edited", changes)
	}
	if is.closed != wasClosed {
		c.st.addEvent(is, map[bool]string{true: "close", false: "reopen"}[is.closed], c.user, "", nil, c.now) // for the timeline
		c.s.emitIssue(c, is, "", map[bool]string{true: "closed", false: "reopened"}[is.closed], nil)
	}
}

func hDeleteIssue(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	c.st.deleteIssue(is)
	c.empty(http.StatusNoContent)
}

// ---- comments

func (c *call) comments(cs []*comment) []*wComment {
	out := make([]*wComment, 0, len(cs))
	for _, cm := range cs {
		out = append(out, c.v.comment(cm))
	}
	return out
}

func (c *call) filterComments(cs []*comment) ([]*comment, bool) {
	since, ok := c.timeFilter("since")
	if !ok {
		return nil, false
	}
	before, ok := c.timeFilter("before")
	if !ok {
		return nil, false
	}
	var out []*comment
	for _, cm := range cs {
		if (!since.IsZero() && cm.updated.Before(since)) || (!before.IsZero() && !cm.updated.Before(before)) {
			continue
		}
		out = append(out, cm)
	}
	return out, true
}

// hListComments ignores page and limit, as Forgejo does (the operation
// declares none): every comment, with X-Total-Count and no Link.
func hListComments(c *call) {
	_, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	cs, ok := c.filterComments(is.comments)
	if !ok {
		return
	}
	c.json(http.StatusOK, c.comments(paginate(c, cs, pageIgnored)))
}

func hListRepoComments(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var all []*comment
	for _, is := range r.issues {
		if is != nil {
			all = append(all, is.comments...)
		}
	}
	slices.SortFunc(all, func(a, b *comment) int { return cmp.Compare(a.id, b.id) })
	cs, ok := c.filterComments(all)
	if !ok {
		return
	}
	c.json(http.StatusOK, c.comments(paginate(c, cs, pageLinked)))
}

func hCreateComment(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	var body struct {
		Body string `json:"body"`
	}
	if !c.decode(&body) {
		return
	}
	if strings.TrimSpace(body.Body) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Body]: Required")
		return
	}
	if is.locked && !canWrite(c.user, r) {
		c.fail(http.StatusForbidden, "user should have a permission to write to a repo")
		return
	}
	cm := c.st.addComment(is, c.user, body.Body, c.now)
	c.st.notify(is, c.user, cm, c.now)
	c.json(http.StatusCreated, c.v.comment(cm))
	c.s.emitComment(c, cm, "created", nil)
}

// pathComment finds {id} among r's comments.
func (c *call) pathComment(r *repo) *comment {
	id, ok := c.pathInt("id")
	cm := c.st.comments[id]
	if !ok || cm == nil || cm.issue.repo != r {
		c.notFound()
		return nil
	}
	return cm
}

func hGetComment(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if cm := c.pathComment(r); cm != nil {
		c.json(http.StatusOK, c.v.comment(cm))
	}
}

func (c *call) canEditComment(cm *comment) bool {
	if c.user == cm.poster || canWrite(c.user, cm.issue.repo) {
		return c.notArchived(cm.issue.repo)
	}
	c.empty(http.StatusForbidden)
	return false
}

func hEditComment(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	cm := c.pathComment(r)
	if cm == nil || !c.canEditComment(cm) {
		return
	}
	var body struct {
		Body string `json:"body"`
	}
	if !c.decode(&body) {
		return
	}
	if strings.TrimSpace(body.Body) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Body]: Required")
		return
	}
	cm.body, cm.updated = body.Body, c.now
	c.json(http.StatusOK, c.v.comment(cm))
}

func hDeleteComment(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	cm := c.pathComment(r)
	if cm == nil || !c.canEditComment(cm) {
		return
	}
	is := cm.issue
	is.comments = slices.DeleteFunc(is.comments, func(x *comment) bool { return x == cm })
	delete(c.st.comments, cm.id)
	for _, n := range c.st.notifications {
		if n.lastComment == cm {
			n.lastComment = nil
		}
	}
	c.empty(http.StatusNoContent)
}

// ---- milestones

func hListMilestones(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	state, name := c.q.Get("state"), strings.ToLower(c.q.Get("name"))
	var ms []*milestone
	for _, m := range r.milestones {
		if !stateMatches(state, m.closed) {
			continue
		}
		if name != "" && !strings.Contains(strings.ToLower(m.title), name) {
			continue
		}
		ms = append(ms, m)
	}
	page := paginate(c, ms, pageTotalOnly)
	out := make([]*wMilestone, 0, len(page))
	for _, m := range page {
		out = append(out, c.v.milestone(m))
	}
	c.json(http.StatusOK, out)
}

type milestoneBody struct {
	Title       *string    `json:"title"`
	Description *string    `json:"description"`
	State       *string    `json:"state"`
	DueOn       *time.Time `json:"due_on"`
}

func (c *call) applyMilestone(m *milestone, body milestoneBody) {
	if body.Title != nil {
		m.title = *body.Title
	}
	if body.Description != nil {
		m.description = *body.Description
	}
	if body.DueOn != nil {
		m.dueOn = *body.DueOn
	}
	if body.State != nil {
		closed := *body.State == "closed"
		if closed != m.closed {
			m.closed = closed
			m.closedAt = time.Time{}
			if closed {
				m.closedAt = c.now
			}
		}
	}
	m.updated = c.now
}

func hCreateMilestone(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var body milestoneBody
	if !c.decode(&body) {
		return
	}
	if body.Title == nil || strings.TrimSpace(*body.Title) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Title]: Required")
		return
	}
	m := &milestone{id: c.st.id("milestone"), repo: r, created: c.now}
	c.applyMilestone(m, body)
	r.milestones = append(r.milestones, m)
	c.json(http.StatusCreated, c.v.milestone(m))
}

// pathMilestone finds {id}, an id or a title as Forgejo accepts both.
func (c *call) pathMilestone(r *repo) *milestone {
	ref := c.p["id"]
	var m *milestone
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		m = r.milestoneByID(id)
	}
	if m == nil {
		m = r.milestoneByTitle(ref)
	}
	if m == nil {
		c.notFound()
	}
	return m
}

func hGetMilestone(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if m := c.pathMilestone(r); m != nil {
		c.json(http.StatusOK, c.v.milestone(m))
	}
}

func hEditMilestone(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	m := c.pathMilestone(r)
	if m == nil {
		return
	}
	var body milestoneBody
	if !c.decode(&body) {
		return
	}
	c.applyMilestone(m, body)
	c.json(http.StatusOK, c.v.milestone(m))
}

func hDeleteMilestone(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	m := c.pathMilestone(r)
	if m == nil {
		return
	}
	r.milestones = slices.DeleteFunc(r.milestones, func(x *milestone) bool { return x == m })
	for _, is := range r.issues {
		if is != nil && is.milestone == m {
			is.milestone = nil
		}
	}
	c.empty(http.StatusNoContent)
}

// matchesKeyword is Forgejo 15's issue search (its database indexer) for a
// lower-cased q: q is split into words ("…" keeps a phrase whole), and an
// issue matches when each word is in its title, its body or one of its
// comments; a word with a leading - must be in none of them, a leading +
// changes nothing. "Issue 1" finds "Issue 21" too. Gitea 1.27 looks for q
// whole.
func matchesKeyword(is *issue, q string) bool {
	in := func(word string) bool {
		if strings.Contains(strings.ToLower(is.title), word) || strings.Contains(strings.ToLower(is.body), word) {
			return true
		}
		return slices.ContainsFunc(is.comments, func(cm *comment) bool { return strings.Contains(strings.ToLower(cm.body), word) })
	}
	for _, word := range searchWords(q) {
		not := strings.HasPrefix(word, "-")
		word = strings.TrimLeft(word, "+-")
		if word != "" && in(word) == not {
			return false
		}
	}
	return true
}

// searchWords splits q at spaces, keeping "quoted phrases" whole.
func searchWords(q string) []string {
	var words []string
	for i, part := range strings.Split(q, `"`) {
		if i%2 == 1 {
			words = append(words, part)
			continue
		}
		words = append(words, strings.Fields(part)...)
	}
	return words
}

// hSearchIssues is /repos/issues/search: issues and pull requests of every
// repository the caller can read.
func hSearchIssues(c *call) {
	state := c.q.Get("state")
	kind := c.q.Get("type")
	text := strings.ToLower(c.q.Get("q"))
	labels := splitList(c.q.Get("labels"))
	owner := c.q.Get("owner")
	var out []*issue
	for _, r := range c.st.reposInOrder {
		if !canRead(c.user, r) || owner != "" && !strings.EqualFold(r.owner.login, owner) {
			continue
		}
		for _, is := range r.issues {
			if is == nil || !stateMatches(state, is.closed) {
				continue
			}
			if (kind == "issues" && is.pull != nil) || (kind == "pulls" && is.pull == nil) {
				continue
			}
			if !matchesKeyword(is, text) {
				continue
			}
			if !issueHasLabels(is, labels) {
				continue
			}
			if c.q.Get("created") == "true" && is.poster != c.user {
				continue
			}
			if c.q.Get("assigned") == "true" && !slices.Contains(is.assignees, c.user) {
				continue
			}
			out = append(out, is)
		}
	}
	slices.SortStableFunc(out, func(a, b *issue) int { return cmp.Or(b.updated.Compare(a.updated), cmp.Compare(b.id, a.id)) })
	page := paginate(c, out, pageLinked)
	res := make([]*wIssue, 0, len(page))
	for _, is := range page {
		res = append(res, c.v.issue(is))
	}
	c.json(http.StatusOK, res)
}

// ---- reactions

var allowedReactions = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

type wReaction struct {
	User      *wUser `json:"user"`
	Content   string `json:"content"`
	CreatedAt string `json:"created_at"`
}

func (c *call) reactionsOf(comment bool) (*[]*reaction, bool) {
	r := c.pathRepo()
	if r == nil {
		return nil, false
	}
	if comment {
		if cm := c.pathComment(r); cm != nil {
			return &cm.reactions, true
		}
		return nil, false
	}
	if is := c.pathIssue(r); is != nil {
		return &is.reactions, true
	}
	return nil, false
}

func hListReactions(comment bool) func(c *call) {
	return func(c *call) {
		rs, ok := c.reactionsOf(comment)
		if !ok {
			return
		}
		out := []*wReaction{}
		for _, x := range *rs {
			out = append(out, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		}
		if !comment {
			out = paginate(c, out, pageLinked)
		}
		c.json(http.StatusOK, out)
	}
}

func hReact(add, comment bool) func(c *call) {
	return func(c *call) {
		rs, ok := c.reactionsOf(comment)
		if !ok {
			return
		}
		var body struct {
			Content string `json:"content"`
		}
		if !c.decode(&body) {
			return
		}
		if !slices.Contains(allowedReactions, body.Content) {
			c.fail(http.StatusForbidden, "'"+body.Content+"' is not an allowed reaction")
			return
		}
		i := slices.IndexFunc(*rs, func(x *reaction) bool { return x.u == c.user && x.content == body.Content })
		switch {
		case add && i >= 0:
			x := (*rs)[i]
			c.json(http.StatusOK, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		case add:
			x := &reaction{u: c.user, content: body.Content, created: c.now}
			*rs = append(*rs, x)
			c.json(http.StatusCreated, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		default:
			if i >= 0 {
				*rs = slices.Delete(*rs, i, i+1)
			}
			c.empty(http.StatusOK)
		}
	}
}

// ---- dependencies: is depends on every issue that blocks it

func (st *state) dependencies(is *issue) []*issue {
	var out []*issue
	for _, r := range st.reposInOrder {
		for _, x := range r.issues {
			if x != nil && slices.Contains(x.blocks, is) {
				out = append(out, x)
			}
		}
	}
	return out
}

func hListDeps(blocks bool) func(c *call) {
	return func(c *call) {
		_, is := c.pathRepoIssue()
		if is == nil {
			return
		}
		list := c.st.dependencies(is)
		if blocks {
			list = is.blocks
		}
		page := paginate(c, list, pageTotalOnly)
		out := make([]*wIssue, 0, len(page))
		for _, x := range page {
			out = append(out, c.v.issue(x))
		}
		c.json(http.StatusOK, out)
	}
}

func hSetDep(blocks, add bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		is := c.pathIssue(r)
		if is == nil || !c.canWriteRepo(r) {
			return
		}
		var body struct {
			Owner string `json:"owner"`
			Repo  string `json:"repo"`
			Index int64  `json:"index"`
		}
		if !c.decode(&body) {
			return
		}
		or := c.st.repo(cmp.Or(body.Owner, r.owner.login), cmp.Or(body.Repo, r.name))
		var other *issue
		if or != nil && canRead(c.user, or) {
			other = or.issue(body.Index)
		}
		if other == nil {
			c.failErrs(http.StatusNotFound, "The target couldn't be found.")
			return
		}
		blocker, blocked := other, is // is depends on other
		if blocks {
			blocker, blocked = is, other
		}
		if add {
			if blocker == blocked {
				c.fail(http.StatusUnprocessableEntity, "an issue cannot depend on itself")
				return
			}
			if !slices.Contains(blocker.blocks, blocked) {
				blocker.blocks = append(blocker.blocks, blocked)
			}
		} else {
			blocker.blocks = slices.DeleteFunc(blocker.blocks, func(x *issue) bool { return x == blocked })
		}
		if add {
			c.json(http.StatusCreated, c.v.issue(other))
		} else {
			c.json(http.StatusOK, c.v.issue(other))
		}
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

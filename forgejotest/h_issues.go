package forgejotest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

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
		if text != "" && !strings.Contains(strings.ToLower(is.title), text) && !strings.Contains(strings.ToLower(is.body), text) {
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
	r.issues[is.number-1] = nil
	for _, cm := range is.comments {
		delete(c.st.comments, cm.id)
	}
	c.st.notifications = slices.DeleteFunc(c.st.notifications, func(n *notification) bool { return n.issue == is })
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

// ---- labels

var colorRE = regexp.MustCompile(`^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$`)

// normalizeColor accepts "#rrggbb", "rrggbb", "#rgb" and "rgb", answering
// 422 "invalid color" otherwise; Forgejo stores six lower-case digits.
func (c *call) normalizeColor(raw string) (string, bool) {
	m := colorRE.FindStringSubmatch(strings.TrimSpace(raw))
	if m == nil {
		c.fail(http.StatusUnprocessableEntity, "invalid color: "+raw)
		return "", false
	}
	hex := strings.ToLower(m[1])
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	return hex, true
}

// sortedLabels orders as the sort parameter says: alphabetically by
// default, or reversealphabetically, mostissues, leastissues.
func sortedLabels(r *repo, mode string) []*label {
	uses := map[*label]int{}
	for _, is := range r.issues {
		if is != nil {
			for _, l := range is.labels {
				uses[l]++
			}
		}
	}
	ls := slices.Clone(r.labels)
	slices.SortFunc(ls, func(a, b *label) int {
		byName := cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), cmp.Compare(a.id, b.id))
		switch mode {
		case "reversealphabetically":
			return -byName
		case "mostissues":
			return cmp.Or(cmp.Compare(uses[b], uses[a]), byName)
		case "leastissues":
			return cmp.Or(cmp.Compare(uses[a], uses[b]), byName)
		}
		return byName
	})
	return ls
}

func hListLabels(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.v.labels(paginate(c, sortedLabels(r, c.q.Get("sort")), pageTotalOnly)))
	}
}

type labelBody struct {
	Name        *string `json:"name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
	Exclusive   *bool   `json:"exclusive"`
	IsArchived  *bool   `json:"is_archived"`
}

func (c *call) applyLabel(l *label, body labelBody) bool {
	if body.Color != nil {
		col, ok := c.normalizeColor(*body.Color)
		if !ok {
			return false
		}
		l.color = col
	}
	if body.Name != nil {
		l.name = *body.Name
	}
	if body.Description != nil {
		l.description = *body.Description
	}
	if body.Exclusive != nil {
		l.exclusive = *body.Exclusive
	}
	if body.IsArchived != nil {
		l.archived = *body.IsArchived
	}
	return true
}

func hCreateLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var body labelBody
	if !c.decode(&body) {
		return
	}
	switch {
	case body.Name == nil || strings.TrimSpace(*body.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	case body.Color == nil || *body.Color == "":
		c.fail(http.StatusUnprocessableEntity, "[Color]: Required")
		return
	}
	l := &label{id: c.st.id("label"), repo: r}
	if !c.applyLabel(l, body) {
		return
	}
	r.labels = append(r.labels, l)
	c.json(http.StatusCreated, c.v.label(l))
}

func (c *call) pathLabel(r *repo) *label {
	id, ok := c.pathInt("id")
	l := r.labelByID(id)
	if !ok || l == nil {
		c.notFound()
		return nil
	}
	return l
}

func hGetLabel(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if l := c.pathLabel(r); l != nil {
		c.json(http.StatusOK, c.v.label(l))
	}
}

// editLabel applies a label edit (repository or organization label): the
// label changes only if the whole body is valid.
func (c *call) editLabel(l *label) {
	var body labelBody
	if !c.decode(&body) {
		return
	}
	cp := *l
	if !c.applyLabel(&cp, body) {
		return
	}
	*l = cp
	c.json(http.StatusOK, c.v.label(l))
}

func hEditLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	l := c.pathLabel(r)
	if l == nil {
		return
	}
	c.editLabel(l)
}

func hDeleteLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	// Forgejo deletes by id without looking the label up first: a label that
	// is not there (or an id that is no number) is 204 all the same.
	id, _ := c.pathInt("id")
	l := r.labelByID(id)
	if l == nil || l.repo != r {
		c.empty(http.StatusNoContent)
		return
	}
	r.labels = slices.DeleteFunc(r.labels, func(x *label) bool { return x == l })
	for _, is := range r.issues {
		if is != nil {
			is.labels = slices.DeleteFunc(is.labels, func(x *label) bool { return x == l })
		}
	}
	c.empty(http.StatusNoContent)
}

func hIssueLabels(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if is := c.pathIssue(r); is != nil {
		c.json(http.StatusOK, c.v.labels(is.labels))
	}
}

// hSetIssueLabels adds (or, replacing, sets) labels named by id or name;
// Forgejo answers 200 with the issue's labels.
func hSetIssueLabels(replace bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil || !c.canWriteRepo(r) {
			return
		}
		is := c.pathIssue(r)
		if is == nil {
			return
		}
		var body struct {
			Labels []json.RawMessage `json:"labels"`
		}
		if !c.decode(&body) {
			return
		}
		ids, names := rawList(body.Labels)
		var add []*label
		for _, id := range ids {
			if l := r.labelByID(id); l != nil {
				add = append(add, l)
			}
		}
		for _, n := range names {
			if l := r.labelByName(n); l != nil {
				add = append(add, l)
			}
		}
		if replace {
			is.labels = nil
		}
		for _, l := range add {
			is.addLabel(l)
		}
		is.updated = c.now
		c.json(http.StatusOK, c.v.labels(is.labels))
		c.s.emitIssue(c, is, "label", "label_updated", nil)
	}
}

func hClearIssueLabels(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	if is := c.pathIssue(r); is != nil {
		is.labels, is.updated = nil, c.now
		c.empty(http.StatusNoContent)
		c.s.emitIssue(c, is, "label", "label_cleared", nil)
	}
}

func hRemoveIssueLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	ident := c.p["identifier"]
	var l *label
	if id, err := strconv.ParseInt(ident, 10, 64); err == nil {
		l = r.labelByID(id)
	} else {
		l = r.labelByName(ident)
	}
	if l == nil {
		c.fail(http.StatusNotFound, "label does not exist [label_id: "+ident+", repo_id: "+strconv.FormatInt(r.id, 10)+"]")
		return
	}
	is.labels = slices.DeleteFunc(is.labels, func(x *label) bool { return x == l })
	is.updated = c.now
	c.empty(http.StatusNoContent)
	c.s.emitIssue(c, is, "label", "label_updated", nil)
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

package forgejotest

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Pull requests: list, create, edit, merge, commits and files, reviews and
// review requests, diff and patch, the pull request of a commit or of a
// branch pair.

// pathPull finds {index} and requires a pull request.
func (c *call) pathPull(r *repo) *issue {
	is := c.pathIssue(r)
	if is != nil && is.pull == nil {
		c.notFound()
		return nil
	}
	return is
}

func hListPulls(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	state := c.q.Get("state")
	milestone := c.formInt("milestone")
	var labelIDs []int64
	for _, v := range c.q["labels"] {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil {
			labelIDs = append(labelIDs, id)
		}
	}
	var out []*issue
	for _, is := range r.issues {
		if is == nil || is.pull == nil || !stateMatches(state, is.closed) {
			continue
		}
		if milestone > 0 && (is.milestone == nil || is.milestone.id != int64(milestone)) {
			continue
		}
		if poster := c.q.Get("poster"); poster != "" && !strings.EqualFold(poster, is.poster.login) {
			continue
		}
		if (c.q.Get("base") != "" && c.q.Get("base") != is.pull.base) || (c.q.Get("head") != "" && c.q.Get("head") != is.pull.head) {
			continue
		}
		if hasLabelIDs(is, labelIDs) {
			out = append(out, is)
		}
	}
	sortIssues(out, c.q.Get("sort"))
	page := paginate(c, out, pageLinked)
	res := make([]*wPull, 0, len(page))
	for _, is := range page {
		res = append(res, c.v.pull(is, true))
	}
	c.json(http.StatusOK, res)
}

func hasLabelIDs(is *issue, ids []int64) bool {
	for _, id := range ids {
		if !slices.ContainsFunc(is.labels, func(l *label) bool { return l.id == id }) {
			return false
		}
	}
	return true
}

func hGetPull(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if is := c.pathPull(r); is != nil {
		c.json(http.StatusOK, c.v.pull(is, false))
	}
}

func hCreatePull(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) {
		return
	}
	var body struct {
		createIssueBody
		Head string `json:"head"`
		Base string `json:"base"`
	}
	if !c.decode(&body) {
		return
	}
	// A head of "owner:branch" names a branch of this repository when the
	// owner is this repository's; forks are not modelled.
	head := body.Head
	if owner, br, ok := strings.Cut(head, ":"); ok && strings.EqualFold(owner, r.owner.login) {
		head = br
	}
	switch {
	case strings.TrimSpace(body.Head) == "":
		c.fail(http.StatusUnprocessableEntity, "[Head]: Required")
		return
	case strings.TrimSpace(body.Base) == "":
		c.fail(http.StatusUnprocessableEntity, "[Base]: Required")
		return
	case strings.TrimSpace(body.Title) == "":
		c.fail(http.StatusUnprocessableEntity, "[Title]: Required")
		return
	}
	hb, bb := r.branch(head), r.branch(body.Base)
	if hb == nil || bb == nil {
		c.notFound()
		return
	}
	if head == body.Base {
		c.fail(http.StatusUnprocessableEntity, "Invalid PullRequest: There are no changes between the head and the base")
		return
	}
	for _, is := range r.issues {
		if is != nil && is.pull != nil && !is.closed && is.pull.head == head && is.pull.base == body.Base {
			c.fail(http.StatusConflict, "pull request already exists for these targets [id: "+strconv.FormatInt(is.pull.id, 10)+
				", issue_id: "+strconv.FormatInt(is.id, 10)+", head_repo_id: "+strconv.FormatInt(r.id, 10)+
				", base_repo_id: "+strconv.FormatInt(r.id, 10)+", head_branch: "+head+", base_branch: "+body.Base+"]")
			return
		}
	}
	writer := canWrite(c.user, r)
	var assignees []*user
	if writer {
		var ok bool
		if assignees, ok = c.resolveUsers(append([]string{body.Assignee}, body.Assignees...)); !ok {
			return
		}
	}
	is := c.st.addIssue(r, c.user, body.Title, body.Body, c.now)
	is.pull = &pull{id: c.st.id("pull"), head: head, base: body.Base, headSHA: hb.sha, baseSHA: bb.sha}
	is.dueDate, is.assignees = body.DueDate, assignees
	if writer {
		for _, id := range body.Labels {
			if l := r.labelByID(id); l != nil {
				is.addLabel(l)
			}
		}
		is.milestone = r.milestoneByID(body.Milestone)
	}
	c.st.notify(is, c.user, nil, c.now)
	c.json(http.StatusCreated, c.v.pull(is, false))
	c.s.emitIssue(c, is, "", "opened", nil)
}

func hEditPull(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil || !c.canEditIssue(is) {
		return
	}
	var body struct {
		Title     *string    `json:"title"`
		Body      *string    `json:"body"`
		Base      *string    `json:"base"`
		State     *string    `json:"state"`
		Milestone *int64     `json:"milestone"`
		DueDate   *time.Time `json:"due_date"`
	}
	if !c.decode(&body) {
		return
	}
	if body.State != nil && is.pull.merged {
		c.fail(http.StatusConflict, "cannot change state of this pull request, it was already merged")
		return
	}
	if body.Base != nil && *body.Base != is.pull.base {
		b := r.branch(*body.Base)
		if b == nil {
			c.fail(http.StatusNotFound, "NewBaseBranchNotExist")
			return
		}
		is.pull.base, is.pull.baseSHA = b.name, b.sha
	}
	if body.Title != nil {
		is.title = *body.Title
	}
	if body.Body != nil {
		is.body = *body.Body
	}
	if body.Milestone != nil && canWrite(c.user, r) {
		is.milestone = r.milestoneByID(*body.Milestone)
	}
	if body.DueDate != nil {
		is.dueDate = *body.DueDate
	}
	if body.State != nil {
		is.setClosed(*body.State == "closed", c.now)
	}
	is.updated = c.now
	c.json(http.StatusCreated, c.v.pull(is, false))
}

func hIsMerged(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	if is.pull.merged {
		c.empty(http.StatusNoContent)
		return
	}
	c.notFound()
}

var mergeStyles = []string{"merge", "rebase", "rebase-merge", "squash", "fast-forward-only", "manually-merged"}

// hMergePull merges without git: the base branch moves to a new merge
// commit. Forgejo answers 200 with no body.
func hMergePull(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	var body struct {
		Do                     string `json:"Do"`
		HeadCommitID           string `json:"head_commit_id"`
		DeleteBranchAfterMerge bool   `json:"delete_branch_after_merge"`
	}
	if !c.decode(&body) {
		return
	}
	switch {
	case body.Do == "":
		c.fail(http.StatusUnprocessableEntity, "[Do]: Required")
		return
	case !slices.Contains(mergeStyles, body.Do):
		c.fail(http.StatusUnprocessableEntity, "[Do]: In")
		return
	case !canWrite(c.user, r):
		c.fail(http.StatusMethodNotAllowed, "User not allowed to merge PR")
		return
	case !c.notArchived(r):
		return
	case is.pull.merged:
		c.fail(http.StatusMethodNotAllowed, "PR already merged")
		return
	case is.closed:
		c.fail(http.StatusMethodNotAllowed, "PR is closed")
		return
	case body.HeadCommitID != "" && body.HeadCommitID != is.pull.headSHA:
		c.fail(http.StatusConflict, "head out of date")
		return
	}
	p := is.pull
	p.merged, p.mergedAt, p.mergedBy = true, c.now, c.user
	p.mergeSHA = fakeSHA("merge", r.owner.login, r.name, strconv.FormatInt(is.number, 10), p.headSHA, p.baseSHA)
	if b := r.branch(p.base); b != nil {
		files := maps.Clone(r.files(b))
		if hb := r.branch(p.head); hb != nil {
			maps.Copy(files, r.files(hb))
		}
		msg := "Merge pull request '" + is.title + "'\n"
		r.commits[p.mergeSHA] = &commit{sha: p.mergeSHA, parent: b.sha, message: msg, author: c.user, when: c.now, files: files}
		b.sha, b.message, b.author, b.when = p.mergeSHA, msg, c.user, c.now
	}
	if body.DeleteBranchAfterMerge && p.head != r.defaultBranch {
		r.branches = slices.DeleteFunc(r.branches, func(b *branch) bool { return b.name == p.head })
	}
	is.setClosed(true, c.now)
	is.updated = c.now
	c.st.notify(is, c.user, nil, c.now)
	c.empty(http.StatusOK)
	c.s.emitIssue(c, is, "", "closed", nil) // merged: pull_request.merged is true
}

// Reviews, commits and files: no Link, only X-Total-Count, as on Codeberg.

type wCommitUser struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type wCommitMeta struct {
	URL     string `json:"url"`
	Sha     string `json:"sha"`
	Created string `json:"created"`
}

type wRepoCommit struct {
	URL          string         `json:"url"`
	Author       *wCommitUser   `json:"author"`
	Committer    *wCommitUser   `json:"committer"`
	Message      string         `json:"message"`
	Tree         *wCommitMeta   `json:"tree"`
	Verification *wVerification `json:"verification"`
}

type wCommitFile struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

type wCommitStats struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

type wCommit struct {
	URL       string         `json:"url"`
	Sha       string         `json:"sha"`
	Created   string         `json:"created"`
	HTMLURL   string         `json:"html_url"`
	Commit    *wRepoCommit   `json:"commit"`
	Author    *wUser         `json:"author"`
	Committer *wUser         `json:"committer"`
	Parents   []*wCommitMeta `json:"parents"`
	Files     []*wCommitFile `json:"files"`
	Stats     *wCommitStats  `json:"stats"`
}

type wChangedFile struct {
	Filename    string `json:"filename"`
	Status      string `json:"status"`
	Additions   int    `json:"additions"`
	Deletions   int    `json:"deletions"`
	Changes     int    `json:"changes"`
	HTMLURL     string `json:"html_url"`
	ContentsURL string `json:"contents_url"`
	RawURL      string `json:"raw_url"`
}

// pullFile is the one file every fake pull request changes.
func pullFile(is *issue) string { return "pull-" + strconv.FormatInt(is.number, 10) + ".txt" }

func hPullCommits(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	full := r.owner.login + "/" + r.name
	p := is.pull
	cu := &wCommitUser{Name: is.poster.login, Email: is.poster.login + "@noreply." + c.v.host, Date: ts(is.created)}
	commit := &wCommit{
		URL: c.v.api("/repos/" + full + "/git/commits/" + p.headSHA), Sha: p.headSHA, Created: ts(is.created),
		HTMLURL: c.v.html("/" + full + "/commit/" + p.headSHA),
		Commit: &wRepoCommit{
			URL: c.v.api("/repos/" + full + "/git/commits/" + p.headSHA), Author: cu, Committer: cu,
			Message: is.title + "\n", Tree: &wCommitMeta{URL: c.v.api("/repos/" + full + "/git/trees/" + p.headSHA), Sha: p.headSHA, Created: ts(is.created)},
			Verification: &wVerification{Reason: "gpg.error.not_signed_commit"},
		},
		Author: c.v.user(is.poster), Committer: c.v.user(is.poster),
		Parents: []*wCommitMeta{{URL: c.v.api("/repos/" + full + "/git/commits/" + p.baseSHA), Sha: p.baseSHA, Created: goZeroTime}},
		Files:   []*wCommitFile{{Filename: pullFile(is), Status: "added"}},
		Stats:   &wCommitStats{Total: 1, Additions: 1},
	}
	c.json(http.StatusOK, paginate(c, []*wCommit{commit}, pageTotalOnly))
}

func hPullFiles(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	full := r.owner.login + "/" + r.name
	var files []*wChangedFile
	for _, ch := range pullChanges(r, is) {
		files = append(files, &wChangedFile{
			Filename: ch.path, Status: ch.status, Additions: ch.additions, Deletions: ch.deletions, Changes: ch.additions + ch.deletions,
			HTMLURL:     c.v.html("/" + full + "/src/commit/" + is.pull.headSHA + "/" + ch.path),
			ContentsURL: c.v.api("/repos/" + full + "/contents/" + ch.path + "?ref=" + is.pull.headSHA),
			RawURL:      c.v.html("/" + full + "/raw/commit/" + is.pull.headSHA + "/" + ch.path),
		})
	}
	// Forgejo pages the files with a Link header, as Gitea does (the same
	// handler: SetLinkHeader and X-Total-Count).
	c.json(http.StatusOK, paginate(c, files, pageLinked))
}

// fileChange is one file a pull request changes, as git counts it.
type fileChange struct {
	path                 string
	status               string // added, changed or deleted
	additions, deletions int
}

// pullChanges lists the files that differ between the pull request's base
// and head branches, in git's order (by path), with their line counts; a
// pull request whose branches carry no files of their own changes its one
// synthetic file.
func pullChanges(r *repo, is *issue) []fileChange {
	base, head := pullTrees(r, is)
	paths := changedPaths(base, head)
	if len(paths) == 0 {
		return []fileChange{{path: pullFile(is), status: "added", additions: 1}}
	}
	out := make([]fileChange, 0, len(paths))
	for _, p := range paths {
		old, hadOld := base[p]
		nw, hasNew := head[p]
		ch := fileChange{path: p, status: "changed"}
		switch {
		case !hadOld:
			ch.status = "added"
		case !hasNew:
			ch.status = "deleted"
		}
		ch.additions, ch.deletions = lineChanges(old, nw)
		out = append(out, ch)
	}
	return out
}

func pullTrees(r *repo, is *issue) (base, head map[string]string) {
	if b := r.branch(is.pull.base); b != nil {
		base = r.files(b)
	}
	if h := r.branch(is.pull.head); h != nil {
		head = r.files(h)
	}
	return base, head
}

func changedPaths(base, head map[string]string) []string {
	var paths []string
	for p, v := range head {
		if old, ok := base[p]; !ok || old != v {
			paths = append(paths, p)
		}
	}
	for p := range base {
		if _, ok := head[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// lineChanges counts the lines added and deleted from old to nw as git
// does: lines keep their terminator (so a last line that gains a newline
// has changed) and the lines both share, in order, are the longest common
// subsequence.
func lineChanges(old, nw string) (additions, deletions int) {
	a, b := splitKeep(old), splitKeep(nw)
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	common := lcs[0][0]
	return len(b) - common, len(a) - common
}

func splitKeep(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// hCommitPull is repoGetCommitPullRequest: the pull request whose merge
// made the commit (a head commit is not enough, as Forgejo's
// GetPullRequestByMergedCommit looks at merges only).
func hCommitPull(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha := c.p["sha"]
	for _, is := range r.issues {
		if is != nil && is.pull != nil && is.pull.merged && is.pull.mergeSHA == sha {
			c.json(http.StatusOK, c.v.pull(is, false))
			return
		}
	}
	c.fail(http.StatusNotFound, "pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: 0, head_branch: , base_branch: ]")
}

// hPullByBaseHead is repoGetPullRequestByBaseHead: the first pull request
// from head (a branch, or "owner:branch" of this repository) into base,
// whatever its state.
func hPullByBaseHead(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	head := c.p["head"]
	if owner, br, ok := strings.Cut(head, ":"); ok {
		if name, _, ok := strings.Cut(owner, "/"); ok {
			owner = name
		}
		if !strings.EqualFold(owner, r.owner.login) {
			c.notFound()
			return
		}
		head = br
	}
	for _, is := range r.issues {
		if is != nil && is.pull != nil && is.pull.base == c.p["base"] && is.pull.head == head {
			c.json(http.StatusOK, c.v.pull(is, false))
			return
		}
	}
	c.notFound()
}

// hCancelAutoMerge is repoCancelScheduledAutoMerge. The fake merges at
// once and never schedules a merge, so there is never one to cancel: 404
// for every pull request, as Forgejo answers one without a schedule.
func hCancelAutoMerge(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	if is.pull == nil {
		c.notFound()
		return
	}
	c.notFound()
}

// ---- pull request reviews and review requests

type review struct {
	id        int64
	pull      *issue
	reviewer  *user
	state     string // PENDING, APPROVED, REQUEST_CHANGES, COMMENT, REQUEST_REVIEW
	body      string
	commit    string
	dismissed bool
	submitted time.Time
	updated   time.Time
}

type wReview struct {
	ID                int64   `json:"id"`
	User              *wUser  `json:"user"`
	Team              *wTeam  `json:"team"`
	State             string  `json:"state"`
	Body              string  `json:"body"`
	CommitID          string  `json:"commit_id"`
	Stale             bool    `json:"stale"`
	Official          bool    `json:"official"`
	Dismissed         bool    `json:"dismissed"`
	CodeCommentsCount int     `json:"comments_count"`
	Submitted         *string `json:"submitted_at"`
	Updated           string  `json:"updated_at"`
	HTMLURL           string  `json:"html_url"`
	HTMLPullURL       string  `json:"pull_request_url"`
}

func (v view) review(rv *review) *wReview {
	is := rv.pull
	w := &wReview{
		ID: rv.id, User: v.user(rv.reviewer), State: rv.state, Body: rv.body, CommitID: rv.commit,
		Official: canWrite(rv.reviewer, is.repo) && rv.state != "COMMENT" && rv.state != "PENDING", Dismissed: rv.dismissed,
		Submitted: nts(rv.submitted), Updated: ts(rv.updated),
		HTMLURL:     v.html(issuePath(is) + "#issuecomment-" + strconv.FormatInt(rv.id, 10)),
		HTMLPullURL: v.html(issuePath(is)),
	}
	if w.Submitted == nil {
		s := goZeroTime
		w.Submitted = &s
	}
	return w
}

func (c *call) reviewsOf(is *issue) []*review {
	var out []*review
	for _, rv := range c.st.reviews {
		if rv.pull == is && (rv.state != "PENDING" || rv.reviewer == c.user) {
			out = append(out, rv)
		}
	}
	return out
}

func hListReviews(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	page := paginate(c, c.reviewsOf(is), pageTotalOnly)
	out := make([]*wReview, 0, len(page))
	for _, rv := range page {
		out = append(out, c.v.review(rv))
	}
	c.json(http.StatusOK, out)
}

var reviewEvents = map[string]string{"APPROVED": "APPROVED", "APPROVE": "APPROVED", "REQUEST_CHANGES": "REQUEST_CHANGES", "COMMENT": "COMMENT", "PENDING": "PENDING", "": "PENDING"}

// submitReview checks and applies an event; it answers the error itself.
func (c *call) submitReview(rv *review, event, body string) bool {
	state, ok := reviewEvents[strings.ToUpper(event)]
	if !ok {
		c.fail(http.StatusUnprocessableEntity, "Unknown review event: "+event)
		return false
	}
	if rv.reviewer == rv.pull.poster && (state == "APPROVED" || state == "REQUEST_CHANGES") {
		c.fail(http.StatusUnprocessableEntity, map[string]string{"APPROVED": "approve your own pull is not allowed", "REQUEST_CHANGES": "reject your own pull is not allowed"}[state])
		return false
	}
	if (state == "REQUEST_CHANGES" || state == "COMMENT") && strings.TrimSpace(body) == "" {
		c.fail(http.StatusUnprocessableEntity, "review event "+state+" requires a body")
		return false
	}
	rv.state, rv.body, rv.updated = state, body, c.now
	if state != "PENDING" {
		rv.submitted = c.now
		c.st.removeReviewRequest(rv.pull, rv.reviewer)
	}
	return true
}

func hCreateReview(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	var body struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		CommitID string `json:"commit_id"`
	}
	if !c.decode(&body) {
		return
	}
	rv := &review{pull: is, reviewer: c.user, commit: cmp.Or(body.CommitID, is.pull.headSHA)}
	if !c.submitReview(rv, body.Event, body.Body) {
		return
	}
	rv.id = c.st.id("review")
	c.st.reviews = append(c.st.reviews, rv)
	c.json(http.StatusOK, c.v.review(rv))
	c.s.emitReview(c, rv)
}

func (c *call) pathReview(is *issue) *review {
	id, _ := c.pathInt("id")
	for _, rv := range c.reviewsOf(is) {
		if rv.id == id {
			return rv
		}
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
	return nil
}

func (c *call) reviewRoute() (*repo, *issue, *review) {
	r := c.pathRepo()
	if r == nil {
		return nil, nil, nil
	}
	is := c.pathPull(r)
	if is == nil {
		return nil, nil, nil
	}
	rv := c.pathReview(is)
	return r, is, rv
}

func hGetReview(c *call) {
	if _, _, rv := c.reviewRoute(); rv != nil {
		c.json(http.StatusOK, c.v.review(rv))
	}
}

func hSubmitReview(c *call) {
	_, _, rv := c.reviewRoute()
	if rv == nil {
		return
	}
	var body struct {
		Event string `json:"event"`
		Body  string `json:"body"`
	}
	if !c.decode(&body) {
		return
	}
	if rv.state != "PENDING" {
		c.fail(http.StatusUnprocessableEntity, "only a pending review can be submitted")
		return
	}
	if strings.ToUpper(body.Event) == "PENDING" || body.Event == "" {
		c.fail(http.StatusUnprocessableEntity, "Unknown review event: "+body.Event)
		return
	}
	if !c.submitReview(rv, body.Event, body.Body) {
		return
	}
	c.json(http.StatusOK, c.v.review(rv))
	c.s.emitReview(c, rv)
}

func hDismissReview(dismiss bool) func(c *call) {
	return func(c *call) {
		r, _, rv := c.reviewRoute()
		if rv == nil {
			return
		}
		if !canAdmin(c.user, r) {
			c.fail(http.StatusForbidden, "Must be repo admin")
			return
		}
		if rv.state != "APPROVED" && rv.state != "REQUEST_CHANGES" {
			c.fail(http.StatusForbidden, "not need to dismiss this review because it's type is not Approve or change request")
			return
		}
		rv.dismissed = dismiss
		c.json(http.StatusOK, c.v.review(rv))
	}
}

func hDeleteReview(c *call) {
	r, _, rv := c.reviewRoute()
	if rv == nil {
		return
	}
	if rv.reviewer != c.user && !canAdmin(c.user, r) {
		c.fail(http.StatusForbidden, "Must be repo admin")
		return
	}
	c.st.reviews = slices.DeleteFunc(c.st.reviews, func(x *review) bool { return x == rv })
	c.empty(http.StatusNoContent)
}

func (st *state) removeReviewRequest(is *issue, u *user) {
	is.pull.requested = slices.DeleteFunc(is.pull.requested, func(x *user) bool { return x == u })
}

func hReviewRequests(add bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		is := c.pathPull(r)
		if is == nil {
			return
		}
		var body struct {
			Reviewers []string `json:"reviewers"`
		}
		if !c.decode(&body) {
			return
		}
		var us []*user
		for _, l := range body.Reviewers {
			if strings.TrimSpace(l) == "" {
				continue
			}
			u := c.st.user(l)
			if u == nil {
				// As Gitea 1.27 does (404, not the 422 of other user lists).
				c.failErrs(http.StatusNotFound, "The target couldn't be found.", "User '"+l+"' not exist")
				return
			}
			if !slices.Contains(us, u) {
				us = append(us, u)
			}
		}
		var out []*wReview
		for _, u := range us {
			if add && u == is.poster {
				c.fail(http.StatusUnprocessableEntity, "the poster cannot be a reviewer")
				return
			}
		}
		for _, u := range us {
			c.st.removeReviewRequest(is, u)
			if add {
				is.pull.requested = append(is.pull.requested, u)
				rv := &review{id: c.st.id("review"), pull: is, reviewer: u, state: "REQUEST_REVIEW", updated: c.now}
				c.st.reviews = append(c.st.reviews, rv)
				out = append(out, c.v.review(rv))
			} else {
				c.st.reviews = slices.DeleteFunc(c.st.reviews, func(x *review) bool {
					return x.pull == is && x.reviewer == u && x.state == "REQUEST_REVIEW"
				})
			}
		}
		if add {
			if out == nil {
				out = []*wReview{}
			}
			c.json(http.StatusCreated, out)
			return
		}
		c.empty(http.StatusNoContent)
	}
}

type wReviewPayload struct {
	Action      string `json:"action"`
	Number      int64  `json:"number"`
	PullRequest *wPull `json:"pull_request"`
	Repository  *wRepo `json:"repository"`
	Sender      *wUser `json:"sender"`
	CommitID    string `json:"commit_id"`
	Review      any    `json:"review"`
}

func (s *Server) emitReview(c *call, rv *review) {
	var t string
	switch rv.state {
	case "APPROVED":
		t = "pull_request_review_approved"
	case "REQUEST_CHANGES":
		t = "pull_request_review_rejected"
	case "COMMENT":
		t = "pull_request_review_comment"
	default:
		return
	}
	v := c.payloadView()
	is := rv.pull
	s.emit(c, is.repo, eventType(t), "", &wReviewPayload{Action: "reviewed", Number: is.number, PullRequest: v.pull(is, false),
		Repository: v.repo(is.repo, 0), Sender: c.sender(), CommitID: rv.commit,
		Review: map[string]string{"type": t, "content": rv.body}})
}

// ---- diff and patch

// hPullDiff is repoDownloadPullDiffOrPatch. The fake's pull request is one
// commit (its title the message, its poster the author), so its .diff is
// git diff from base to head and its .patch is the one mail git
// format-patch --no-signature writes for that commit: the mail header,
// the diffstat, the diff.
func hPullDiff(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	n, err := strconv.ParseInt(c.p["index"], 10, 64)
	is := r.issue(n)
	if err != nil || is == nil || is.pull == nil {
		c.notFound()
		return
	}
	base, head := pullChange(r, is)
	var diff string
	switch c.p["diffType"] {
	case "diff":
		diff = commitDiff(base, head)
	case "patch":
		diff = formatPatch(c.v.host, is.pull.headSHA, is.poster, is.created, is.title, "", base, head)
	default:
		c.notFound()
		return
	}
	c.status, c.out = http.StatusOK, []byte(diff)
	c.header.Set("Content-Type", "text/plain; charset=utf-8")
}

// pullChange is what a pull request changes: the head and base branches'
// files, or, when the branches carry no files of their own, the pull
// request's synthetic file (its title) added.
func pullChange(r *repo, is *issue) (base, head map[string]string) {
	base, head = pullTrees(r, is)
	if len(changedPaths(base, head)) == 0 {
		return nil, map[string]string{pullFile(is): is.title + "\n"}
	}
	return base, head
}

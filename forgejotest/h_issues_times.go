package forgejotest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Time tracking, as Forgejo's issue_tracked_time.go and issue_stopwatch.go:
// times are added by hand or by stopping a stopwatch, soft-deleted (a
// deleted time is still found by id, as "already deleted"), and each change
// leaves an event in the issue's timeline whose content is "|<seconds>".
// Time tracking is enabled on every repository, with Forgejo's default
// "only contributors may track time": a writer of the repository or the
// issue's poster.

type trackedTime struct {
	id      int64
	issue   *issue
	user    *user
	seconds int64
	created time.Time
	deleted bool
}

type stopwatch struct {
	issue   *issue
	created time.Time
}

type wTrackedTime struct {
	ID       int64   `json:"id"`
	Created  string  `json:"created"`
	Time     int64   `json:"time"`
	UserID   int64   `json:"user_id"`
	UserName string  `json:"user_name"`
	IssueID  int64   `json:"issue_id"`
	Issue    *wIssue `json:"issue"`
}

type wStopWatch struct {
	Created       string `json:"created"`
	Seconds       int64  `json:"seconds"`
	Duration      string `json:"duration"`
	IssueIndex    int64  `json:"issue_index"`
	IssueTitle    string `json:"issue_title"`
	RepoOwnerName string `json:"repo_owner_name"`
	RepoName      string `json:"repo_name"`
}

func (v view) trackedTime(t *trackedTime) *wTrackedTime {
	return &wTrackedTime{
		ID: t.id, Created: ts(t.created), Time: t.seconds, UserID: t.user.id, UserName: t.user.login,
		IssueID: t.issue.id, Issue: v.issue(t.issue),
	}
}

func (c *call) trackedTimes(tts []*trackedTime) []*wTrackedTime {
	out := make([]*wTrackedTime, 0, len(tts))
	for _, t := range tts {
		out = append(out, c.v.trackedTime(t))
	}
	return out
}

// secToTime renders a duration as Forgejo 15's util.SecToTime: the two
// largest units that matter, in words ("1 minute 30 seconds", "2 hours 1
// minute", "3 days 4 hours"; years then months, months then weeks, weeks
// then days). Gitea 1.27 shows hours and minutes only ("1 minute").
func secToTime(sec int64) string {
	days := sec / (60 * 60 * 24)
	years := days / 365
	days -= years * 365
	months := days * 12 / 365
	days -= months * 365 / 12
	weeks := days / 7
	days -= weeks * 7
	hours, minutes, seconds := (sec/3600)%24, (sec/60)%60, sec%60
	var parts []string
	add := func(n int64, unit string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+unit)
		case n > 1:
			parts = append(parts, strconv.FormatInt(n, 10)+" "+unit+"s")
		}
	}
	switch {
	case years > 0:
		add(years, "year")
		add(months, "month")
	case months > 0:
		add(months, "month")
		add(weeks, "week")
	case weeks > 0:
		add(weeks, "week")
		add(days, "day")
	case days > 0:
		add(days, "day")
		add(hours, "hour")
	case hours > 0:
		add(hours, "hour")
		add(minutes, "minute")
	default:
		add(minutes, "minute")
		add(seconds, "second")
	}
	return strings.Join(parts, " ")
}

// canTrackTime is Forgejo's CanUseTimetracker with time tracking enabled
// and limited to contributors: a writer, or the issue's poster.
func (c *call) canTrackTime(is *issue) bool {
	return canWrite(c.user, is.repo) || c.user == is.poster
}

// addTime records seconds by u on is and its timeline event.
func (c *call) addTime(is *issue, u *user, seconds int64, created time.Time) *trackedTime {
	if created.IsZero() {
		created = c.now
	}
	t := &trackedTime{id: c.st.id("tracked_time"), issue: is, user: u, seconds: seconds, created: created}
	c.st.more.times = append(c.st.more.times, t)
	c.st.addEvent(is, "add_time_manual", u, fmt.Sprintf("|%d", seconds), t, c.now)
	return t
}

// timesFilter reads the user, since and before of a time listing; a user
// who may not see others' times sees their own, and asking for someone
// else's is 403. It answers the error itself.
func (c *call) timesFilter(r *repo) (func(t *trackedTime) bool, bool) {
	var who *user
	if name := strings.TrimSpace(c.q.Get("user")); name != "" {
		if who = c.st.user(name); who == nil {
			c.fail(http.StatusNotFound, "user does not exist [uid: 0, name: "+name+"]")
			return nil, false
		}
	}
	if !c.user.isAdmin && who != c.user && !canWrite(c.user, r) {
		if who != nil {
			c.fail(http.StatusForbidden, "query by user not allowed; not enough rights")
			return nil, false
		}
		who = c.user
	}
	since, ok := c.timeFilter("since")
	if !ok {
		return nil, false
	}
	before, ok := c.timeFilter("before")
	if !ok {
		return nil, false
	}
	return func(t *trackedTime) bool {
		return !t.deleted && (who == nil || t.user == who) &&
			(since.IsZero() || !t.created.Before(since)) && (before.IsZero() || !t.created.After(before))
	}, true
}

func (c *call) selectTimes(keep func(t *trackedTime) bool) []*trackedTime {
	var out []*trackedTime
	for _, t := range c.st.more.times {
		if keep(t) && c.st.alive(t.issue) {
			out = append(out, t)
		}
	}
	return out
}

// hIssueTimes lists an issue's tracked times. As every time listing,
// without page it returns them all (Forgejo pages only when page is set),
// with X-Total-Count and no Link.
func hIssueTimes(c *call) {
	r, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	keep, ok := c.timesFilter(r)
	if !ok {
		return
	}
	tts := c.selectTimes(func(t *trackedTime) bool { return t.issue == is && keep(t) })
	c.json(http.StatusOK, c.trackedTimes(paginate(c, tts, pageLoneLimitAll)))
}

func hAddTime(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var body struct {
		Time     int64     `json:"time"`
		Created  time.Time `json:"created"`
		UserName string    `json:"user_name"`
	}
	if !c.decode(&body) {
		return
	}
	if body.Time == 0 {
		c.fail(http.StatusUnprocessableEntity, "[Time]: Required")
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	if !c.canTrackTime(is) {
		c.empty(http.StatusForbidden)
		return
	}
	u := c.user
	// Only a repository administrator (for someone else) or a site
	// administrator may book time for another user.
	if body.UserName != "" && ((canAdmin(c.user, r) && c.user.login != body.UserName) || c.user.isAdmin) {
		if u = c.st.user(body.UserName); u == nil {
			c.internalError("GetUserByName: user does not exist [uid: 0, name: " + body.UserName + "]")
			return
		}
	}
	t := c.addTime(is, u, body.Time, body.Created)
	c.json(http.StatusOK, c.v.trackedTime(t))
}

// hResetTime deletes the caller's times on an issue; with none it is 404.
func hResetTime(c *call) {
	_, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	if !c.canTrackTime(is) {
		c.empty(http.StatusForbidden)
		return
	}
	var sum int64
	var mine []*trackedTime
	for _, t := range c.st.more.times {
		if t.issue == is && t.user == c.user && !t.deleted {
			sum += t.seconds
			mine = append(mine, t)
		}
	}
	if sum == 0 {
		c.fail(http.StatusNotFound, "tracked_time does not exist")
		return
	}
	for _, t := range mine {
		t.deleted = true
	}
	c.st.addEvent(is, "delete_time_manual", c.user, fmt.Sprintf("|%d", sum), nil, c.now)
	c.empty(http.StatusNoContent)
}

// hDeleteTime deletes one time by id. As Forgejo, the id is looked up
// among all times, not the issue's own.
func hDeleteTime(c *call) {
	_, is := c.pathRepoIssue()
	if is == nil {
		return
	}
	if !c.canTrackTime(is) {
		c.empty(http.StatusForbidden)
		return
	}
	id, _ := c.pathInt("id")
	i := slices.IndexFunc(c.st.more.times, func(t *trackedTime) bool { return t.id == id })
	if i < 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", fmt.Sprintf("tracked_time does not exist [id: %d]", id))
		return
	}
	t := c.st.more.times[i]
	if t.deleted {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", fmt.Sprintf("tracked time [%d] already deleted", t.id))
		return
	}
	if !c.user.isAdmin && t.user != c.user {
		c.empty(http.StatusForbidden) // only site administrators and the user themself
		return
	}
	t.deleted = true
	c.st.addEvent(t.issue, "delete_time_manual", t.user, fmt.Sprintf("|%d", t.seconds), nil, c.now)
	c.empty(http.StatusNoContent)
}

func hRepoTimes(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	keep, ok := c.timesFilter(r)
	if !ok {
		return
	}
	tts := c.selectTimes(func(t *trackedTime) bool { return t.issue.repo == r && keep(t) })
	c.json(http.StatusOK, c.trackedTimes(paginate(c, tts, pageLoneLimitAll)))
}

// hRepoUserTimes is the deprecated per-user listing: every time of the
// user in the repository, unpaged; only administrators see others'.
func hRepoUserTimes(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	name := c.p["user"]
	u := c.st.user(name)
	if u == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "user does not exist [uid: 0, name: "+name+"]")
		return
	}
	if !canAdmin(c.user, r) && u != c.user {
		c.fail(http.StatusForbidden, "query by user not allowed; not enough rights")
		return
	}
	tts := c.selectTimes(func(t *trackedTime) bool { return !t.deleted && t.issue.repo == r && t.user == u })
	c.json(http.StatusOK, c.trackedTimes(tts))
}

func hMyTimes(c *call) {
	since, ok := c.timeFilter("since")
	if !ok {
		return
	}
	before, ok := c.timeFilter("before")
	if !ok {
		return
	}
	tts := c.selectTimes(func(t *trackedTime) bool {
		return !t.deleted && t.user == c.user &&
			(since.IsZero() || !t.created.Before(since)) && (before.IsZero() || !t.created.After(before))
	})
	c.json(http.StatusOK, c.trackedTimes(paginate(c, tts, pageLoneLimitAll)))
}

// ---- stopwatches

// finishStopwatch stops u's stopwatch, booking the time it ran.
func (c *call) finishStopwatch(u *user, sw *stopwatch) {
	delete(c.st.more.stopwatches, u)
	secs := int64(c.now.Sub(sw.created) / time.Second)
	t := &trackedTime{id: c.st.id("tracked_time"), issue: sw.issue, user: u, seconds: secs, created: c.now}
	c.st.more.times = append(c.st.more.times, t)
	c.st.addEvent(sw.issue, "stop_tracking", u, fmt.Sprintf("|%d", secs), t, c.now)
}

// hStopwatch starts (201), stops (201, booking the time) or cancels (204)
// the caller's stopwatch on an issue; starting one stops the caller's
// stopwatch on another issue first, as Forgejo keeps one per user.
func hStopwatch(op string) func(c *call) {
	return func(c *call) {
		r, is := c.pathRepoIssue()
		if is == nil {
			return
		}
		if !canWrite(c.user, r) || !c.canTrackTime(is) {
			c.empty(http.StatusForbidden)
			return
		}
		sw := c.st.more.stopwatches[c.user]
		running := sw != nil && sw.issue == is
		switch {
		case op == "start" && running:
			c.fail(http.StatusConflict, "cannot start a stopwatch again if it already exists")
			return
		case op != "start" && !running:
			c.fail(http.StatusConflict, "cannot stop/cancel a non existent stopwatch")
			return
		}
		switch op {
		case "start":
			if sw != nil && c.st.alive(sw.issue) {
				c.finishStopwatch(c.user, sw)
			}
			if c.st.more.stopwatches == nil {
				c.st.more.stopwatches = map[*user]*stopwatch{}
			}
			c.st.more.stopwatches[c.user] = &stopwatch{issue: is, created: c.now}
			c.st.addEvent(is, "start_tracking", c.user, "", nil, c.now)
			c.empty(http.StatusCreated)
		case "stop":
			c.finishStopwatch(c.user, sw)
			c.empty(http.StatusCreated)
		default:
			delete(c.st.more.stopwatches, c.user)
			c.st.addEvent(is, "cancel_tracking", c.user, "", nil, c.now)
			c.empty(http.StatusNoContent)
		}
	}
}

func hMyStopwatches(c *call) {
	var sws []*stopwatch
	if sw := c.st.more.stopwatches[c.user]; sw != nil && c.st.alive(sw.issue) {
		sws = append(sws, sw)
	}
	out := []*wStopWatch{}
	for _, sw := range paginate(c, sws, pageTotalOnly) {
		secs := int64(c.now.Sub(sw.created) / time.Second)
		is := sw.issue
		out = append(out, &wStopWatch{
			Created: ts(sw.created), Seconds: secs, Duration: secToTime(secs), IssueIndex: is.number, IssueTitle: is.title,
			RepoOwnerName: is.repo.owner.login, RepoName: is.repo.name,
		})
	}
	c.json(http.StatusOK, out)
}

// ---- deadline

// hSetDeadline sets or (with a zero date) removes an issue's due date. As
// Forgejo, the date is kept and the time of day set to 23:59:59 (in UTC,
// the fake's zone); the answer is 201 {"due_date"}.
func hSetDeadline(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var body struct {
		DueDate *time.Time `json:"due_date"`
	}
	if !c.decode(&body) {
		return
	}
	if body.DueDate == nil {
		c.fail(http.StatusUnprocessableEntity, "[Deadline]: Required")
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	if !canWrite(c.user, r) {
		c.fail(http.StatusForbidden, "Not repo writer")
		return
	}
	var due time.Time
	if !body.DueDate.IsZero() {
		y, m, d := body.DueDate.Date()
		due = time.Date(y, m, d, 23, 59, 59, 0, time.UTC)
	}
	if !due.Equal(is.dueDate) {
		const day = "2006-01-02"
		switch {
		case is.dueDate.IsZero():
			c.st.addEvent(is, "added_deadline", c.user, due.Format(day), nil, c.now)
		case due.IsZero():
			c.st.addEvent(is, "removed_deadline", c.user, is.dueDate.Format(day), nil, c.now)
		default:
			c.st.addEvent(is, "modified_deadline", c.user, due.Format(day)+"|"+is.dueDate.Format(day), nil, c.now)
		}
		is.dueDate, is.updated = due, c.now
	}
	c.json(http.StatusCreated, struct {
		DueDate *string `json:"due_date"`
	}{nts(due)})
}

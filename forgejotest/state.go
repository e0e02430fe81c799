package forgejotest

import (
	"cmp"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// This file is the in-memory model. Every field is guarded by Server.mu.

type user struct {
	id        int64
	login     string
	fullName  string
	isAdmin   bool
	created   time.Time
	lastLogin time.Time
	following []*user // in follow order
	starred   []*repo // in star order
	org       *org    // non-nil for an organization
	hooks     []*hook // user or organization hooks
	// grant is, during a call made with a minted access token, that token,
	// which narrows what the call reaches (scopes.go); nil otherwise.
	grant *accessToken
}

type repo struct {
	id            int64
	owner         *user
	name          string
	description   string
	website       string
	private       bool
	empty         bool
	archived      bool
	parent        *repo
	defaultBranch string
	created       time.Time
	updated       time.Time
	topics        []string
	stargazers    []*user
	forks         []*repo
	branches      []*branch
	issues        []*issue // issues and pulls, by number-1
	labels        []*label
	milestones    []*milestone
	commits       map[string]*commit // by sha
	tags          []*tag
	releases      []*release
	hooks         []*hook
	collaborators []*collaborator
	protections   []*protection
	statuses      []*commitStatus // in creation order
}

type branch struct {
	name    string
	sha     string
	message string
	author  *user
	when    time.Time
}

type issue struct {
	id        int64
	repo      *repo
	number    int64
	poster    *user
	title     string
	body      string
	ref       string
	closed    bool
	closedAt  time.Time
	locked    bool
	labels    []*label
	milestone *milestone
	assignees []*user
	comments  []*comment
	dueDate   time.Time
	created   time.Time
	updated   time.Time
	pull      *pull // non-nil for pull requests
	assets    []*attachment
	reactions []*reaction
	blocks    []*issue // the issues this one blocks (dependencies are the reverse)
}

type pull struct {
	id        int64
	head      string
	base      string
	headSHA   string
	baseSHA   string
	merged    bool
	mergedAt  time.Time
	mergedBy  *user
	mergeSHA  string
	requested []*user // review requested from
}

type comment struct {
	id        int64
	issue     *issue
	poster    *user
	body      string
	created   time.Time
	updated   time.Time
	assets    []*attachment
	reactions []*reaction
}

type reaction struct {
	u       *user
	content string
	created time.Time
}

type label struct {
	id          int64
	repo        *repo
	org         *user // for an organization label, repo is nil
	name        string
	color       string
	description string
	exclusive   bool
	archived    bool
}

type milestone struct {
	id          int64
	repo        *repo
	title       string
	description string
	closed      bool
	closedAt    time.Time
	dueOn       time.Time
	created     time.Time
	updated     time.Time
}

type notification struct {
	id          int64
	user        *user
	repo        *repo
	issue       *issue
	status      string // unread, read or pinned
	lastComment *comment
	updated     time.Time
}

// state is everything the fake knows.
type state struct {
	nextID        map[string]int64
	users         map[string]*user // by lower-case login
	usersInOrder  []*user
	tokens        map[string]*user
	repos         map[string]*repo // by lower-case "owner/name"
	reposInOrder  []*repo
	comments      map[int64]*comment
	notifications []*notification
	reviews       []*review
	topics        map[string]*topicRec // every topic a repository has had, by name

	// Areas that keep their model next to their handlers.
	actions  actionsState  // h_actions.go
	accounts accountsState // h_users_accounts.go
	more     moreState     // times, watches, pins, wiki, keys, notes, transfers…: moreState below
}

func newState() *state {
	return &state{
		nextID:   map[string]int64{},
		users:    map[string]*user{},
		tokens:   map[string]*user{},
		repos:    map[string]*repo{},
		comments: map[int64]*comment{},
	}
}

// id hands out the next id of a kind; ids start at 1, as a fresh instance's
// do, and are never reused.
func (st *state) id(kind string) int64 {
	st.nextID[kind]++
	return st.nextID[kind]
}

func (st *state) user(login string) *user { return st.users[strings.ToLower(login)] }

func (st *state) repo(owner, name string) *repo {
	return st.repos[strings.ToLower(owner)+"/"+strings.ToLower(name)]
}

func (st *state) addUser(login string, now time.Time) *user {
	if u := st.user(login); u != nil {
		return u
	}
	u := &user{id: st.id("user"), login: login, created: now}
	st.users[strings.ToLower(login)] = u
	st.usersInOrder = append(st.usersInOrder, u)
	return u
}

func (st *state) newToken(u *user) string {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("forgejotest: no randomness for a token: " + err.Error())
	}
	tok := hex.EncodeToString(b[:])
	st.tokens[tok] = u
	return tok
}

func (st *state) addRepo(owner *user, name string, autoInit bool, defaultBranch string, now time.Time) *repo {
	if defaultBranch == "" {
		defaultBranch = "main"
	}
	r := &repo{
		id: st.id("repo"), owner: owner, name: name, defaultBranch: defaultBranch,
		created: now, updated: now, empty: !autoInit, topics: []string{}, commits: map[string]*commit{},
	}
	if autoInit {
		cm := r.addCommit("", "Initial commit\n", owner, now, map[string]string{"README.md": "# " + name + "\n\n"})
		r.branches = append(r.branches, &branch{
			name: defaultBranch, sha: cm.sha, message: cm.message, author: owner, when: now,
		})
	}
	st.repos[strings.ToLower(owner.login)+"/"+strings.ToLower(name)] = r
	st.reposInOrder = append(st.reposInOrder, r)
	return r
}

func (st *state) deleteRepo(r *repo) {
	delete(st.repos, strings.ToLower(r.owner.login)+"/"+strings.ToLower(r.name))
	st.reposInOrder = slices.DeleteFunc(st.reposInOrder, func(x *repo) bool { return x == r })
	for _, u := range st.usersInOrder {
		u.starred = slices.DeleteFunc(u.starred, func(x *repo) bool { return x == r })
	}
	st.notifications = slices.DeleteFunc(st.notifications, func(n *notification) bool { return n.repo == r })
	if r.parent != nil {
		r.parent.forks = slices.DeleteFunc(r.parent.forks, func(x *repo) bool { return x == r })
	}
	st.actions.forgetRepo(st, r)
}

func (r *repo) branch(name string) *branch {
	for _, b := range r.branches {
		if b.name == name {
			return b
		}
	}
	return nil
}

func (r *repo) issue(number int64) *issue {
	if number < 1 || number > int64(len(r.issues)) {
		return nil
	}
	return r.issues[number-1] // nil once deleted
}

func (r *repo) labelByID(id int64) *label {
	for _, l := range r.labels {
		if l.id == id {
			return l
		}
	}
	if r.owner.org != nil { // an organization's labels apply to its repositories
		for _, l := range r.owner.org.labels {
			if l.id == id {
				return l
			}
		}
	}
	return nil
}

func (r *repo) labelByName(name string) *label {
	for _, l := range r.labels {
		if strings.EqualFold(l.name, name) {
			return l
		}
	}
	return nil
}

func (r *repo) milestoneByID(id int64) *milestone {
	for _, m := range r.milestones {
		if m.id == id {
			return m
		}
	}
	return nil
}

func (r *repo) milestoneByTitle(title string) *milestone {
	for _, m := range r.milestones {
		if strings.EqualFold(m.title, title) {
			return m
		}
	}
	return nil
}

func (r *repo) openCounts() (issues, pulls int) {
	for _, is := range r.issues {
		if is == nil || is.closed {
			continue
		}
		if is.pull != nil {
			pulls++
		} else {
			issues++
		}
	}
	return issues, pulls
}

func (st *state) addIssue(r *repo, poster *user, title, body string, now time.Time) *issue {
	is := &issue{
		id: st.id("issue"), repo: r, number: int64(len(r.issues)) + 1, poster: poster,
		title: title, body: body, created: now, updated: now,
	}
	r.issues = append(r.issues, is)
	r.updated = now
	return is
}

func (st *state) addComment(is *issue, poster *user, body string, now time.Time) *comment {
	c := &comment{id: st.id("comment"), issue: is, poster: poster, body: body, created: now, updated: now}
	is.comments = append(is.comments, c)
	is.updated = now
	st.comments[c.id] = c
	return c
}

func (is *issue) setClosed(closed bool, now time.Time) {
	if is.closed == closed {
		return
	}
	is.closed = closed
	if closed {
		is.closedAt = now
	} else {
		is.closedAt = time.Time{}
	}
}

func (is *issue) hasLabel(l *label) bool { return slices.Contains(is.labels, l) }

func (is *issue) addLabel(l *label) {
	if !is.hasLabel(l) {
		is.labels = append(is.labels, l)
		slices.SortFunc(is.labels, func(a, b *label) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	}
}

// deleteIssue removes an issue (or pull request) with its comments and
// notification threads; its number stays taken.
func (st *state) deleteIssue(is *issue) {
	is.repo.issues[is.number-1] = nil
	for _, cm := range is.comments {
		delete(st.comments, cm.id)
	}
	st.notifications = slices.DeleteFunc(st.notifications, func(n *notification) bool { return n.issue == is })
}

// notify tells the people involved in an issue that actor did something to
// it, as Forgejo's CreateOrUpdateIssueNotifications picks them: the
// repository's watchers, those subscribed to the issue, and its
// participants (the poster and everyone who reviewed it), less whoever
// unsubscribed from the issue, never the actor. A commenter is not a
// participant: Forgejo's participant query joins reviews, so on Forgejo 15
// someone who only commented hears nothing of the replies, where Gitea
// tells every commenter. One thread per user and issue, as Forgejo keeps
// them: a new event marks it unread again.
func (st *state) notify(is *issue, actor *user, last *comment, now time.Time) {
	seen := map[*user]bool{actor: true}
	targets := append(slices.Clone(st.watchers(is.repo)), is.poster)
	for u, on := range st.more.issueWatch[is] {
		if on {
			targets = append(targets, u)
		}
	}
	for _, rv := range st.reviews {
		if rv.pull == is && rv.state != "REQUEST_REVIEW" && rv.state != "PENDING" {
			targets = append(targets, rv.reviewer)
		}
	}
	slices.SortStableFunc(targets, func(a, b *user) int { return cmp.Compare(a.id, b.id) })
	for _, u := range targets {
		if on, set := st.explicitWatch(is, u); u == nil || seen[u] || u.org != nil || set && !on {
			continue
		}
		seen[u] = true
		st.upsertNotification(u, is, last, now)
	}
}

func (st *state) upsertNotification(u *user, is *issue, last *comment, now time.Time) *notification {
	for _, n := range st.notifications {
		if n.user == u && n.issue == is {
			if n.status != "pinned" {
				n.status = "unread"
			}
			if last != nil {
				n.lastComment = last
			}
			n.updated = now
			return n
		}
	}
	n := &notification{id: st.id("notification"), user: u, repo: is.repo, issue: is, status: "unread", lastComment: last, updated: now}
	st.notifications = append(st.notifications, n)
	return n
}

// fakeSHA is a stable 40-hex commit id derived from its parts.
func fakeSHA(parts ...string) string {
	sum := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}

// moreState is this area's part of the model, guarded by Server.mu. Its zero
// value is ready: every map is made on first write. Data hangs off the
// shared model by pointer (*repo, *issue, *user), so nothing is added to the
// shared structs; what belongs to a deleted repository or issue stays here
// unreachable, and the listings that span repositories skip it (alive).
type moreState struct {
	times       []*trackedTime            // every tracked time, in id order (soft-deleted ones too)
	stopwatches map[*user]*stopwatch      // at most one running per user, as Forgejo
	issueWatch  map[*issue]map[*user]bool // explicit issue subscriptions (true) and unsubscriptions (false)
	repoWatch   map[*repo][]*user         // watchers, in watch order
	watchInit   map[*repo]bool            // repoWatch holds the creator's automatic watch
	watchSince  map[*repo]map[*user]time.Time
	events      map[*issue][]*issueEvent // timeline events other than comments
	pins        map[*issue]int           // pin order, 1-based, per repository and kind
	wikis       map[*repo]*wiki
	keys        map[*repo][]*deployKey
	tagProts    map[*repo][]*tagProtection
	pushMirrors map[*repo][]*pushMirror
	notes       map[*repo]map[string]string // git notes, by commit id
	transfers   map[*repo]*transfer         // pending transfers
	redirects   map[string]*repo            // old "owner/name" (lower case) of transferred repositories
	avatars     map[*repo]string            // avatar file names
}

// alive reports whether is still exists: its repository is not deleted and
// it was not deleted from it.
func (st *state) alive(is *issue) bool {
	if is == nil || is.repo == nil {
		return false
	}
	r := is.repo
	if st.repo(r.owner.login, r.name) != r {
		return false
	}
	return r.issue(is.number) == is
}

// issueEvent is a timeline entry that is not a comment: Forgejo stores them
// as comments of other types, with ids from the same sequence.
type issueEvent struct {
	id      int64
	kind    string // Forgejo's comment type name: pin, add_time_manual, close...
	doer    *user
	content string
	time    *trackedTime
	created time.Time
}

// addEvent records a timeline event on is.
func (st *state) addEvent(is *issue, kind string, doer *user, content string, tt *trackedTime, now time.Time) {
	if st.more.events == nil {
		st.more.events = map[*issue][]*issueEvent{}
	}
	st.more.events[is] = append(st.more.events[is], &issueEvent{id: st.id("comment"), kind: kind, doer: doer, content: content, time: tt, created: now})
}

// removeUser drops u from us, keeping the order.
func removeUser(us []*user, u *user) []*user {
	return slices.DeleteFunc(us, func(x *user) bool { return x == u })
}

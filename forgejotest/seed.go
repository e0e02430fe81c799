package forgejotest

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Seeding helpers put state in place without going through HTTP, so they
// neither appear in the request log nor spend rate-limit quota. They fail the
// test (or panic, for a server from Start) when what they refer to is
// missing. Owners and authors are created on demand.

// AddUser creates the user if needed and returns a new token for it.
func (s *Server) AddUser(login string) (token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.newToken(s.st.addUser(login, s.now()))
}

// SetAdmin makes a user a site administrator (or not); administrators may
// do everything to every repository.
func (s *Server) SetAdmin(login string, admin bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.addUser(login, s.now()).isAdmin = admin
}

// AddRepo creates a public repository with a default branch "main" holding
// one commit, as auto_init does; the owner is created if needed.
func (s *Server) AddRepo(owner, name string) {
	if s.tb != nil {
		s.tb.Helper()
	}
	s.mu.Lock()
	exists := s.st.repo(owner, name) != nil
	if !exists {
		now := s.now()
		s.st.addRepo(s.st.addUser(owner, now), name, true, "", now)
	}
	s.mu.Unlock()
	if exists {
		s.fatalf("AddRepo: %s/%s already exists", owner, name)
	}
}

// SetRepo changes a seeded repository: description, privacy, archived.
func (s *Server) SetRepo(owner, repoName, description string, private, archived bool) {
	s.withRepo(owner, repoName, func(r *repo, _ time.Time) {
		r.description, r.private, r.archived = description, private, archived
	})
}

// IssueSpec describes a seeded issue. Labels and Milestone are names,
// created in the repository when missing.
type IssueSpec struct {
	Title     string
	Body      string
	Author    string // default: the repository's owner
	Closed    bool
	Labels    []string
	Milestone string
	Assignees []string
	// Comments are added in order, by Author (the issue's author when
	// blank).
	Comments []CommentSpec
	// Created sets created_at and updated_at (default: now).
	Created time.Time
}

// CommentSpec is a seeded comment.
type CommentSpec struct {
	Author string
	Body   string
}

// AddIssue files one issue and returns its number.
func (s *Server) AddIssue(owner, repoName string, spec IssueSpec) (number int64) {
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		number = s.st.seedIssue(r, spec, now).number
	})
	return number
}

// AddIssues files n open issues titled "Issue 1", "Issue 2"… (numbered
// after any existing ones) and returns their numbers.
func (s *Server) AddIssues(owner, repoName string, n int) []int64 {
	var out []int64
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		for range n {
			is := s.st.seedIssue(r, IssueSpec{Title: "Issue " + strconv.Itoa(len(r.issues)+1)}, now)
			out = append(out, is.number)
		}
	})
	return out
}

func (st *state) seedIssue(r *repo, spec IssueSpec, now time.Time) *issue {
	if !spec.Created.IsZero() {
		now = spec.Created
	}
	author := r.owner
	if spec.Author != "" {
		author = st.addUser(spec.Author, now)
	}
	is := st.addIssue(r, author, spec.Title, spec.Body, now)
	for _, name := range spec.Labels {
		is.addLabel(st.seedLabel(r, name, ""))
	}
	if spec.Milestone != "" {
		is.milestone = st.seedMilestone(r, spec.Milestone, now)
	}
	for _, a := range spec.Assignees {
		is.assignees = append(is.assignees, st.addUser(a, now))
	}
	for _, cs := range spec.Comments {
		by := author
		if cs.Author != "" {
			by = st.addUser(cs.Author, now)
		}
		st.addComment(is, by, cs.Body, now)
	}
	if spec.Closed {
		is.setClosed(true, now)
	}
	return is
}

// seedPalette colours seeded labels.
var seedPalette = []string{"ee0701", "84b6eb", "128a0c", "e4e669", "d876e3", "fbca04", "c5def5", "5319e7"}

func (st *state) seedLabel(r *repo, name, color string) *label {
	if l := r.labelByName(name); l != nil {
		return l
	}
	if color == "" {
		color = seedPalette[len(r.labels)%len(seedPalette)]
	}
	l := &label{id: st.id("label"), repo: r, name: name, color: color}
	r.labels = append(r.labels, l)
	return l
}

func (st *state) seedMilestone(r *repo, title string, now time.Time) *milestone {
	if m := r.milestoneByTitle(title); m != nil {
		return m
	}
	m := &milestone{id: st.id("milestone"), repo: r, title: title, created: now, updated: now}
	r.milestones = append(r.milestones, m)
	return m
}

// AddLabel creates a label (color as "rrggbb"; a palette colour when
// blank) and returns its id; an existing label of that name is reused.
func (s *Server) AddLabel(owner, repoName, name, color string) (id int64) {
	s.withRepo(owner, repoName, func(r *repo, _ time.Time) { id = s.st.seedLabel(r, name, color).id })
	return id
}

// AddMilestone creates an open milestone and returns its id; an existing one
// of that title is reused.
func (s *Server) AddMilestone(owner, repoName, title string) (id int64) {
	s.withRepo(owner, repoName, func(r *repo, now time.Time) { id = s.st.seedMilestone(r, title, now).id })
	return id
}

// AddComment comments on an issue or pull request and returns the comment's
// id. Like a real comment, it notifies the people involved.
func (s *Server) AddComment(owner, repoName string, number int64, author, body string) (id int64) {
	s.withIssue(owner, repoName, number, func(is *issue, now time.Time) {
		u := s.st.addUser(author, now)
		c := s.st.addComment(is, u, body, now)
		s.st.notify(is, u, c, now)
		id = c.id
	})
	return id
}

// AddBranch creates a branch with a commit of its own on top of the default
// branch.
func (s *Server) AddBranch(owner, repoName, name string) {
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		s.seedBranch(r, name, now)
	})
}

func (s *Server) seedBranch(r *repo, name string, now time.Time) *branch {
	if b := r.branch(name); b != nil {
		return b
	}
	b := &branch{name: name, sha: fakeSHA("branch", r.owner.login, r.name, name), message: "Work on " + name + "\n", author: r.owner, when: now}
	r.branches = append(r.branches, b)
	r.empty = false
	return b
}

// AddPull opens a pull request from head into base (both created when
// missing, head with a commit of its own) by the repository's owner, and
// returns its number.
func (s *Server) AddPull(owner, repoName, head, base, title string) (number int64) {
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		bb := s.seedBranch(r, base, now)
		hb := s.seedBranch(r, head, now)
		is := s.st.addIssue(r, r.owner, title, "", now)
		is.pull = &pull{id: s.st.id("pull"), head: head, base: base, headSHA: hb.sha, baseSHA: bb.sha}
		number = is.number
	})
	return number
}

// SetTopics replaces a repository's topics (lower-cased and sorted, as
// Forgejo stores them).
func (s *Server) SetTopics(owner, repoName string, topics ...string) {
	s.withRepo(owner, repoName, func(r *repo, _ time.Time) {
		r.topics = r.topics[:0]
		for _, t := range topics {
			r.topics = append(r.topics, strings.ToLower(strings.TrimSpace(t)))
		}
		slices.Sort(r.topics)
		r.topics = slices.Compact(r.topics)
	})
}

// Star makes login star the repository.
func (s *Server) Star(login, owner, repoName string) {
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		u := s.st.addUser(login, now)
		for _, x := range u.starred {
			if x == r {
				return
			}
		}
		u.starred = append(u.starred, r)
		r.stargazers = append(r.stargazers, u)
	})
}

// Follow makes login follow target.
func (s *Server) Follow(login, target string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	u, t := s.st.addUser(login, now), s.st.addUser(target, now)
	for _, x := range u.following {
		if x == t {
			return
		}
	}
	u.following = append(u.following, t)
}

// AddNotification gives login an unread notification thread about an issue
// or pull request and returns the thread's id.
func (s *Server) AddNotification(login, owner, repoName string, number int64) (id int64) {
	s.withIssue(owner, repoName, number, func(is *issue, now time.Time) {
		id = s.st.upsertNotification(s.st.addUser(login, now), is, nil, now).id
	})
	return id
}

func (s *Server) withRepo(owner, name string, f func(r *repo, now time.Time)) {
	if s.tb != nil {
		s.tb.Helper()
	}
	s.mu.Lock()
	r := s.st.repo(owner, name)
	if r == nil {
		s.mu.Unlock()
		s.fatalf("no repository %s/%s (add it with AddRepo first)", owner, name)
		return
	}
	defer s.mu.Unlock()
	f(r, s.now())
}

func (s *Server) withIssue(owner, name string, number int64, f func(is *issue, now time.Time)) {
	if s.tb != nil {
		s.tb.Helper()
	}
	var missing bool
	s.withRepo(owner, name, func(r *repo, now time.Time) {
		is := r.issue(number)
		if is == nil {
			missing = true
			return
		}
		f(is, now)
	})
	if missing {
		s.fatalf("no issue %s/%s#%d", owner, name, number)
	}
}

package forgejotest

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// This file renders the model as Forgejo does: the same JSON field names in
// the same order as the bodies captured from codeberg.org, null where Forgejo
// sends null, "0001-01-01T00:00:00Z" where it sends Go's zero time, and
// timestamps in RFC 3339.

var (
	goZeroTime = "0001-01-01T00:00:00Z"
	epochTime  = "1970-01-01T00:00:00Z"
)

func ts(t time.Time) string {
	if t.IsZero() {
		return goZeroTime
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// nts is a nullable timestamp: null when unset.
func nts(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := ts(t)
	return &s
}

type wUser struct {
	ID                int64  `json:"id"`
	Login             string `json:"login"`
	LoginName         string `json:"login_name"`
	SourceID          int64  `json:"source_id"`
	FullName          string `json:"full_name"`
	Email             string `json:"email"`
	AvatarURL         string `json:"avatar_url"`
	HTMLURL           string `json:"html_url"`
	Language          string `json:"language"`
	IsAdmin           bool   `json:"is_admin"`
	LastLogin         string `json:"last_login"`
	Created           string `json:"created"`
	Restricted        bool   `json:"restricted"`
	Active            bool   `json:"active"`
	ProhibitLogin     bool   `json:"prohibit_login"`
	Location          string `json:"location"`
	Pronouns          string `json:"pronouns"`
	Website           string `json:"website"`
	Description       string `json:"description"`
	Visibility        string `json:"visibility"`
	FollowersCount    int    `json:"followers_count"`
	FollowingCount    int    `json:"following_count"`
	StarredReposCount int    `json:"starred_repos_count"`
	Username          string `json:"username"`
}

type wPermissions struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"`
	Pull  bool `json:"pull"`
}

type wInternalTracker struct {
	EnableTimeTracker                bool `json:"enable_time_tracker"`
	AllowOnlyContributorsToTrackTime bool `json:"allow_only_contributors_to_track_time"`
	EnableIssueDependencies          bool `json:"enable_issue_dependencies"`
}

type wRepo struct {
	ID                            int64             `json:"id"`
	Owner                         *wUser            `json:"owner"`
	Name                          string            `json:"name"`
	FullName                      string            `json:"full_name"`
	Description                   string            `json:"description"`
	Empty                         bool              `json:"empty"`
	Private                       bool              `json:"private"`
	Fork                          bool              `json:"fork"`
	Template                      bool              `json:"template"`
	Parent                        *wRepo            `json:"parent"`
	Mirror                        bool              `json:"mirror"`
	Size                          int64             `json:"size"`
	Language                      string            `json:"language"`
	LanguagesURL                  string            `json:"languages_url"`
	HTMLURL                       string            `json:"html_url"`
	URL                           string            `json:"url"`
	Link                          string            `json:"link"`
	SSHURL                        string            `json:"ssh_url"`
	CloneURL                      string            `json:"clone_url"`
	OriginalURL                   string            `json:"original_url"`
	Website                       string            `json:"website"`
	StarsCount                    int               `json:"stars_count"`
	ForksCount                    int               `json:"forks_count"`
	WatchersCount                 int               `json:"watchers_count"`
	OpenIssuesCount               int               `json:"open_issues_count"`
	OpenPrCounter                 int               `json:"open_pr_counter"`
	ReleaseCounter                int               `json:"release_counter"`
	DefaultBranch                 string            `json:"default_branch"`
	Archived                      bool              `json:"archived"`
	CreatedAt                     string            `json:"created_at"`
	UpdatedAt                     string            `json:"updated_at"`
	ArchivedAt                    string            `json:"archived_at"`
	Permissions                   *wPermissions     `json:"permissions"`
	HasIssues                     bool              `json:"has_issues"`
	InternalTracker               *wInternalTracker `json:"internal_tracker"`
	HasWiki                       bool              `json:"has_wiki"`
	HasWikiContents               bool              `json:"has_wiki_contents"`
	WikiBranch                    string            `json:"wiki_branch"`
	WikiSSHURL                    string            `json:"wiki_ssh_url"`
	WikiCloneURL                  string            `json:"wiki_clone_url"`
	GloballyEditableWiki          bool              `json:"globally_editable_wiki"`
	HasPullRequests               bool              `json:"has_pull_requests"`
	HasProjects                   bool              `json:"has_projects"`
	HasReleases                   bool              `json:"has_releases"`
	HasPackages                   bool              `json:"has_packages"`
	HasActions                    bool              `json:"has_actions"`
	IgnoreWhitespaceConflicts     bool              `json:"ignore_whitespace_conflicts"`
	AllowMergeCommits             bool              `json:"allow_merge_commits"`
	AllowRebase                   bool              `json:"allow_rebase"`
	AllowRebaseExplicit           bool              `json:"allow_rebase_explicit"`
	AllowSquashMerge              bool              `json:"allow_squash_merge"`
	AllowFastForwardOnlyMerge     bool              `json:"allow_fast_forward_only_merge"`
	AllowRebaseUpdate             bool              `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge bool              `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             string            `json:"default_merge_style"`
	DefaultAllowMaintainerEdit    bool              `json:"default_allow_maintainer_edit"`
	DefaultUpdateStyle            string            `json:"default_update_style"`
	AvatarURL                     string            `json:"avatar_url"`
	Internal                      bool              `json:"internal"`
	MirrorInterval                string            `json:"mirror_interval"`
	ObjectFormatName              string            `json:"object_format_name"`
	MirrorUpdated                 string            `json:"mirror_updated"`
	RepoTransfer                  *struct{}         `json:"repo_transfer"`
	Topics                        []string          `json:"topics"`
}

type wLabel struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

type wMilestone struct {
	ID           int64   `json:"id"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	State        string  `json:"state"`
	OpenIssues   int     `json:"open_issues"`
	ClosedIssues int     `json:"closed_issues"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
	ClosedAt     *string `json:"closed_at"`
	DueOn        *string `json:"due_on"`
}

type wPullMeta struct {
	Merged   bool    `json:"merged"`
	MergedAt *string `json:"merged_at"`
	Draft    bool    `json:"draft"`
	HTMLURL  string  `json:"html_url"`
}

type wRepoMeta struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

type wIssue struct {
	ID               int64          `json:"id"`
	URL              string         `json:"url"`
	HTMLURL          string         `json:"html_url"`
	Number           int64          `json:"number"`
	User             *wUser         `json:"user"`
	OriginalAuthor   string         `json:"original_author"`
	OriginalAuthorID int64          `json:"original_author_id"`
	Title            string         `json:"title"`
	Body             string         `json:"body"`
	Ref              string         `json:"ref"`
	Assets           []*wAttachment `json:"assets"`
	Labels           []*wLabel      `json:"labels"`
	Milestone        *wMilestone    `json:"milestone"`
	Assignee         *wUser         `json:"assignee"`
	Assignees        []*wUser       `json:"assignees"`
	State            string         `json:"state"`
	IsLocked         bool           `json:"is_locked"`
	Comments         int            `json:"comments"`
	CreatedAt        string         `json:"created_at"`
	UpdatedAt        string         `json:"updated_at"`
	ClosedAt         *string        `json:"closed_at"`
	DueDate          *string        `json:"due_date"`
	PullRequest      *wPullMeta     `json:"pull_request"`
	Repository       *wRepoMeta     `json:"repository"`
	PinOrder         int            `json:"pin_order"`
}

type wComment struct {
	ID               int64          `json:"id"`
	HTMLURL          string         `json:"html_url"`
	PullRequestURL   string         `json:"pull_request_url"`
	IssueURL         string         `json:"issue_url"`
	User             *wUser         `json:"user"`
	OriginalAuthor   string         `json:"original_author"`
	OriginalAuthorID int64          `json:"original_author_id"`
	Body             string         `json:"body"`
	Assets           []*wAttachment `json:"assets"`
	CreatedAt        string         `json:"created_at"`
	UpdatedAt        string         `json:"updated_at"`
}

type wPayloadUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	Username string `json:"username"`
}

type wVerification struct {
	Verified  bool      `json:"verified"`
	Reason    string    `json:"reason"`
	Signature string    `json:"signature"`
	Signer    *struct{} `json:"signer"`
	Payload   string    `json:"payload"`
}

type wPayloadCommit struct {
	ID           string         `json:"id"`
	Message      string         `json:"message"`
	URL          string         `json:"url"`
	Author       *wPayloadUser  `json:"author"`
	Committer    *wPayloadUser  `json:"committer"`
	Verification *wVerification `json:"verification"`
	Timestamp    string         `json:"timestamp"`
	Added        []string       `json:"added"`
	Removed      []string       `json:"removed"`
	Modified     []string       `json:"modified"`
}

type wBranch struct {
	Name                          string          `json:"name"`
	Commit                        *wPayloadCommit `json:"commit"`
	Protected                     bool            `json:"protected"`
	RequiredApprovals             int             `json:"required_approvals"`
	EnableStatusCheck             bool            `json:"enable_status_check"`
	StatusCheckContexts           []string        `json:"status_check_contexts"`
	UserCanPush                   bool            `json:"user_can_push"`
	UserCanMerge                  bool            `json:"user_can_merge"`
	EffectiveBranchProtectionName string          `json:"effective_branch_protection_name"`
}

type wPRBranch struct {
	Label  string `json:"label"`
	Ref    string `json:"ref"`
	Sha    string `json:"sha"`
	RepoID int64  `json:"repo_id"`
	Repo   *wRepo `json:"repo"`
}

type wPull struct {
	ID                      int64       `json:"id"`
	URL                     string      `json:"url"`
	Number                  int64       `json:"number"`
	User                    *wUser      `json:"user"`
	Title                   string      `json:"title"`
	Body                    string      `json:"body"`
	Labels                  []*wLabel   `json:"labels"`
	Milestone               *wMilestone `json:"milestone"`
	Assignee                *wUser      `json:"assignee"`
	Assignees               []*wUser    `json:"assignees"`
	RequestedReviewers      []*wUser    `json:"requested_reviewers"`
	RequestedReviewersTeams []struct{}  `json:"requested_reviewers_teams"`
	State                   string      `json:"state"`
	Draft                   bool        `json:"draft"`
	IsLocked                bool        `json:"is_locked"`
	Comments                int         `json:"comments"`
	ReviewComments          int         `json:"review_comments"`
	Additions               int         `json:"additions"`
	Deletions               int         `json:"deletions"`
	ChangedFiles            int         `json:"changed_files"`
	HTMLURL                 string      `json:"html_url"`
	DiffURL                 string      `json:"diff_url"`
	PatchURL                string      `json:"patch_url"`
	Mergeable               bool        `json:"mergeable"`
	Merged                  bool        `json:"merged"`
	MergedAt                *string     `json:"merged_at"`
	MergeCommitSha          *string     `json:"merge_commit_sha"`
	MergedBy                *wUser      `json:"merged_by"`
	AllowMaintainerEdit     bool        `json:"allow_maintainer_edit"`
	Base                    *wPRBranch  `json:"base"`
	Head                    *wPRBranch  `json:"head"`
	MergeBase               string      `json:"merge_base"`
	DueDate                 *string     `json:"due_date"`
	CreatedAt               string      `json:"created_at"`
	UpdatedAt               string      `json:"updated_at"`
	ClosedAt                *string     `json:"closed_at"`
	PinOrder                int         `json:"pin_order"`
	Flow                    int         `json:"flow"`
}

type wNotificationSubject struct {
	Title                string `json:"title"`
	URL                  string `json:"url"`
	LatestCommentURL     string `json:"latest_comment_url"`
	HTMLURL              string `json:"html_url"`
	LatestCommentHTMLURL string `json:"latest_comment_html_url"`
	Type                 string `json:"type"`
	State                string `json:"state"`
}

type wNotification struct {
	ID         int64                 `json:"id"`
	Repository *wRepo                `json:"repository"`
	Subject    *wNotificationSubject `json:"subject"`
	Unread     bool                  `json:"unread"`
	Pinned     bool                  `json:"pinned"`
	UpdatedAt  string                `json:"updated_at"`
	URL        string                `json:"url"`
}

// errorBody is Forgejo's error shape. Errors is a pointer so that it can be
// absent (most errors) or an empty array (Forgejo's "not found").
type errorBody struct {
	Message string    `json:"message"`
	URL     string    `json:"url"`
	Errors  *[]string `json:"errors,omitempty"`
}

// view renders for one viewer: permissions and e-mail visibility depend on
// who asks.
type view struct {
	root   string // instance root, e.g. http://127.0.0.1:1234
	host   string
	viewer *user
	st     *state
	// payload renders for a webhook delivery.
	payload bool
}

func (v view) api(path string) string  { return v.root + "/api/v1" + path }
func (v view) html(path string) string { return v.root + path }

func (v view) user(u *user) *wUser {
	if u == nil {
		return nil
	}
	self := v.viewer == u
	w := &wUser{
		ID: u.id, Login: u.login, FullName: u.fullName,
		Email:     u.login + "@noreply." + v.host,
		AvatarURL: v.html("/avatars/" + fakeSHA("avatar", u.login)[:32]),
		HTMLURL:   v.html("/" + url.PathEscape(u.login)),
		LastLogin: goZeroTime, Created: ts(u.created), Visibility: "public",
		FollowersCount: v.followers(u), FollowingCount: len(u.following), StarredReposCount: len(u.starred),
		Username: u.login,
	}
	if self {
		// Forgejo shows the signed-in user their own address, admin flag
		// and activity.
		w.Email = u.login + "@example.com"
		w.IsAdmin = u.isAdmin
		w.Active = true
		w.LastLogin = ts(u.lastLogin)
	}
	if !v.payload && v.st != nil {
		v.st.accounts.decorate(v.viewer, u, w) // profile fields (h_users_accounts.go)
	}
	return w
}

func (v view) followers(u *user) int {
	n := 0
	for _, f := range v.st.usersInOrder {
		for _, x := range f.following {
			if x == u {
				n++
			}
		}
	}
	return n
}

func (v view) repo(r *repo, depth int) *wRepo {
	if r == nil {
		return nil
	}
	full := r.owner.login + "/" + r.name
	openIssues, openPulls := r.openCounts()
	a := access(v.viewer, r)
	if v.payload {
		a = accessOwner // webhook payloads render the repository as its owner sees it
	}
	perm := &wPermissions{Admin: a >= accessAdmin, Push: a >= accessWrite, Pull: a >= accessRead}
	w := &wRepo{
		ID: r.id, Owner: v.user(r.owner), Name: r.name, FullName: full, Description: r.description,
		Empty: r.empty, Private: r.private, Fork: r.parent != nil, Size: 25,
		LanguagesURL: v.api("/repos/" + full + "/languages"), HTMLURL: v.html("/" + full),
		URL: v.api("/repos/" + full), SSHURL: "ssh://git@" + v.host + "/" + full + ".git",
		CloneURL: v.html("/" + full + ".git"), Website: r.website,
		StarsCount: len(r.stargazers), ForksCount: len(r.forks), WatchersCount: v.st.watchCount(r),
		OpenIssuesCount: openIssues, OpenPrCounter: openPulls, ReleaseCounter: releaseCount(r),
		DefaultBranch: r.defaultBranch, Archived: r.archived,
		CreatedAt: ts(r.created), UpdatedAt: ts(r.updated), ArchivedAt: epochTime,
		Permissions: perm, HasIssues: true,
		InternalTracker:   &wInternalTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true},
		HasWiki:           true,
		WikiBranch:        "master",
		WikiSSHURL:        "ssh://git@" + v.host + "/" + full + ".wiki.git",
		WikiCloneURL:      v.html("/" + full + ".wiki.git"),
		HasPullRequests:   true,
		HasProjects:       true,
		HasReleases:       true,
		HasPackages:       true,
		HasActions:        true,
		AllowMergeCommits: true, AllowRebase: true, AllowRebaseExplicit: true, AllowSquashMerge: true,
		AllowFastForwardOnlyMerge: true, AllowRebaseUpdate: true,
		DefaultMergeStyle: "merge", DefaultAllowMaintainerEdit: true, DefaultUpdateStyle: "merge",
		ObjectFormatName: "sha1", MirrorUpdated: goZeroTime, AvatarURL: v.st.repoAvatarURL(v.root, r),
		Topics: append([]string{}, r.topics...),
	}
	if r.parent != nil && depth == 0 {
		w.Parent = v.repo(r.parent, depth+1)
	}
	return w
}

func (v view) label(l *label) *wLabel {
	return &wLabel{
		ID: l.id, Name: l.name, Exclusive: l.exclusive, IsArchived: l.archived, Color: l.color,
		Description: l.description,
		URL:         v.labelURL(l),
	}
}

func (v view) labelURL(l *label) string {
	if l.repo == nil {
		return v.api("/orgs/" + l.org.login + "/labels/" + strconv.FormatInt(l.id, 10))
	}
	return v.api("/repos/" + l.repo.owner.login + "/" + l.repo.name + "/labels/" + strconv.FormatInt(l.id, 10))
}

func (v view) labels(ls []*label) []*wLabel {
	out := make([]*wLabel, 0, len(ls))
	for _, l := range ls {
		out = append(out, v.label(l))
	}
	return out
}

func (v view) milestone(m *milestone) *wMilestone {
	if m == nil {
		return nil
	}
	open, closed := 0, 0
	for _, is := range m.repo.issues {
		if is == nil || is.milestone != m {
			continue
		}
		if is.closed {
			closed++
		} else {
			open++
		}
	}
	state := "open"
	if m.closed {
		state = "closed"
	}
	return &wMilestone{
		ID: m.id, Title: m.title, Description: m.description, State: state,
		OpenIssues: open, ClosedIssues: closed, CreatedAt: ts(m.created), UpdatedAt: ts(m.updated),
		ClosedAt: nts(m.closedAt), DueOn: nts(m.dueOn),
	}
}

func (v view) assignees(is *issue) (*wUser, []*wUser) {
	if len(is.assignees) == 0 {
		return nil, nil // Forgejo sends null, not []
	}
	out := make([]*wUser, 0, len(is.assignees))
	for _, u := range is.assignees {
		out = append(out, v.user(u))
	}
	return out[0], out
}

func issuePath(is *issue) string {
	kind := "issues"
	if is.pull != nil {
		kind = "pulls"
	}
	return "/" + is.repo.owner.login + "/" + is.repo.name + "/" + kind + "/" + strconv.FormatInt(is.number, 10)
}

func (v view) issue(is *issue) *wIssue {
	state := "open"
	if is.closed {
		state = "closed"
	}
	assignee, assignees := v.assignees(is)
	r := is.repo
	w := &wIssue{
		ID:     is.id,
		URL:    v.api("/repos/" + r.owner.login + "/" + r.name + "/issues/" + strconv.FormatInt(is.number, 10)),
		Number: is.number, HTMLURL: v.html(issuePath(is)), User: v.user(is.poster),
		Title: is.title, Body: is.body, Ref: is.ref, Assets: v.attachments(is.assets), Labels: v.labels(is.labels),
		Milestone: v.milestone(is.milestone), Assignee: assignee, Assignees: assignees,
		State: state, IsLocked: is.locked, Comments: len(is.comments),
		CreatedAt: ts(is.created), UpdatedAt: ts(is.updated), ClosedAt: nts(is.closedAt), DueDate: nts(is.dueDate),
		Repository: &wRepoMeta{ID: r.id, Name: r.name, Owner: r.owner.login, FullName: r.owner.login + "/" + r.name},
		PinOrder:   v.st.pinOrder(is),
	}
	if is.pull != nil {
		w.PullRequest = &wPullMeta{Merged: is.pull.merged, MergedAt: nts(is.pull.mergedAt), Draft: isDraft(is.title), HTMLURL: v.html(issuePath(is))}
	}
	return w
}

func (v view) comment(c *comment) *wComment {
	is := c.issue
	w := &wComment{
		ID:       c.id,
		HTMLURL:  v.html(issuePath(is) + "#issuecomment-" + strconv.FormatInt(c.id, 10)),
		IssueURL: v.html(issuePath(is)), User: v.user(c.poster), Body: c.body, Assets: v.attachments(c.assets),
		CreatedAt: ts(c.created), UpdatedAt: ts(c.updated),
	}
	if is.pull != nil {
		w.PullRequestURL, w.IssueURL = v.html(issuePath(is)), ""
	}
	return w
}

func (v view) payloadCommit(r *repo, b *branch) *wPayloadCommit {
	pu := &wPayloadUser{Name: b.author.login, Email: b.author.login + "@noreply." + v.host, Username: b.author.login}
	return &wPayloadCommit{
		ID: b.sha, Message: b.message, URL: v.html("/" + r.owner.login + "/" + r.name + "/commit/" + b.sha),
		Author: pu, Committer: pu,
		Verification: &wVerification{Reason: "gpg.error.not_signed_commit"},
		Timestamp:    ts(b.when),
	}
}

func (v view) branch(r *repo, b *branch) *wBranch {
	write := canWrite(v.viewer, r)
	return &wBranch{
		Name: b.name, Commit: v.payloadCommit(r, b), StatusCheckContexts: []string{},
		UserCanPush: write, UserCanMerge: write,
	}
}

// pull renders a pull request. Listings leave merged_by null even for merged
// pull requests, as Forgejo does: only the single GET fills it.
func (v view) pull(is *issue, listing bool) *wPull {
	p := is.pull
	r := is.repo
	state := "open"
	if is.closed {
		state = "closed" // merged pull requests too: merged is the evidence
	}
	assignee, assignees := v.assignees(is)
	full := r.owner.login + "/" + r.name
	n := strconv.FormatInt(is.number, 10)
	wr := v.repo(r, 0)
	w := &wPull{
		ID: p.id, URL: v.api("/repos/" + full + "/pulls/" + n), Number: is.number, User: v.user(is.poster),
		Title: is.title, Body: is.body, Labels: v.labels(is.labels), Milestone: v.milestone(is.milestone),
		Assignee: assignee, Assignees: assignees, RequestedReviewers: v.requested(p.requested), RequestedReviewersTeams: []struct{}{},
		State: state, Draft: isDraft(is.title), IsLocked: is.locked, Comments: len(is.comments),
		HTMLURL: v.html(issuePath(is)), DiffURL: v.html(issuePath(is) + ".diff"), PatchURL: v.html(issuePath(is) + ".patch"),
		Mergeable: !p.merged && !is.closed, Merged: p.merged, MergedAt: nts(p.mergedAt),
		AllowMaintainerEdit: false,
		Base:                &wPRBranch{Label: p.base, Ref: p.base, Sha: p.baseSHA, RepoID: r.id, Repo: wr},
		Head:                &wPRBranch{Label: p.head, Ref: p.head, Sha: p.headSHA, RepoID: r.id, Repo: wr},
		MergeBase:           p.baseSHA, DueDate: nts(is.dueDate),
		CreatedAt: ts(is.created), UpdatedAt: ts(is.updated), ClosedAt: nts(is.closedAt), PinOrder: v.st.pinOrder(is),
	}
	for _, ch := range pullChanges(r, is) {
		w.Additions += ch.additions
		w.Deletions += ch.deletions
		w.ChangedFiles++
	}
	if p.merged {
		w.MergeCommitSha = &p.mergeSHA
		if !listing {
			w.MergedBy = v.user(p.mergedBy)
		}
		w.Head.Ref = "refs/pull/" + n + "/head"
	}
	return w
}

func isDraft(title string) bool {
	t := strings.ToLower(title)
	return strings.HasPrefix(t, "wip:") || strings.HasPrefix(t, "[wip]")
}

func (v view) notification(n *notification) *wNotification {
	is := n.issue
	r := n.repo
	state := "open"
	if is.closed {
		state = "closed"
	}
	kind := "Issue"
	if is.pull != nil {
		kind = "Pull"
		if is.pull.merged {
			state = "merged"
		}
	}
	full := r.owner.login + "/" + r.name
	num := strconv.FormatInt(is.number, 10)
	s := &wNotificationSubject{
		Title: is.title, URL: v.api("/repos/" + full + "/issues/" + num), HTMLURL: v.html(issuePath(is)),
		Type: kind, State: state,
	}
	if is.pull != nil {
		s.URL = v.api("/repos/" + full + "/pulls/" + num)
	}
	if n.lastComment != nil {
		cid := strconv.FormatInt(n.lastComment.id, 10)
		s.LatestCommentURL = v.api("/repos/" + full + "/issues/comments/" + cid)
		s.LatestCommentHTMLURL = v.html(issuePath(is) + "#issuecomment-" + cid)
	}
	return &wNotification{
		ID: n.id, Repository: v.repo(r, 0), Subject: s, Unread: n.status == "unread", Pinned: n.status == "pinned",
		UpdatedAt: ts(n.updated), URL: v.api("/notifications/threads/" + strconv.FormatInt(n.id, 10)),
	}
}

// Permissions, simplified: the owner and site administrators administer a
// repository; nobody else writes to it.
func canAdmin(u *user, r *repo) bool { return access(u, r) >= accessAdmin }

func canWrite(u *user, r *repo) bool { return access(u, r) >= accessWrite }

func canRead(u *user, r *repo) bool { return access(u, r) >= accessRead }

// requested renders the users a pull request's review is requested from.
func (v view) requested(us []*user) []*wUser {
	out := make([]*wUser, 0, len(us))
	for _, u := range us {
		out = append(out, v.user(u))
	}
	return out
}

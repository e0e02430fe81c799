package forgejo

import "time"

// ServerVersion: wraps the version of the server
type ServerVersion struct {
	Version string `json:"version"`
}

// GeneralAPISettings: contains global api settings exposed by it
type GeneralAPISettings struct {
	DefaultGitTreesPerPage int64 `json:"default_git_trees_per_page"`
	DefaultMaxBlobSize     int64 `json:"default_max_blob_size"`
	DefaultPagingNum       int64 `json:"default_paging_num"`
	MaxResponseItems       int64 `json:"max_response_items"`
}

// Repository: represents a repository
type Repository struct {
	AllowFastForwardOnlyMerge     bool             `json:"allow_fast_forward_only_merge"`
	AllowMergeCommits             bool             `json:"allow_merge_commits"`
	AllowRebase                   bool             `json:"allow_rebase"`
	AllowRebaseExplicit           bool             `json:"allow_rebase_explicit"`
	AllowRebaseUpdate             bool             `json:"allow_rebase_update"`
	AllowSquashMerge              bool             `json:"allow_squash_merge"`
	Archived                      bool             `json:"archived"`
	ArchivedAt                    time.Time        `json:"archived_at"`
	AvatarURL                     string           `json:"avatar_url"`
	CloneURL                      string           `json:"clone_url"`
	CreatedAt                     time.Time        `json:"created_at"`
	DefaultAllowMaintainerEdit    bool             `json:"default_allow_maintainer_edit"`
	DefaultBranch                 string           `json:"default_branch"`
	DefaultDeleteBranchAfterMerge bool             `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             string           `json:"default_merge_style"`
	DefaultUpdateStyle            string           `json:"default_update_style"`
	Description                   string           `json:"description"`
	Empty                         bool             `json:"empty"`
	ExternalTracker               *ExternalTracker `json:"external_tracker"`
	ExternalWiki                  *ExternalWiki    `json:"external_wiki"`
	Fork                          bool             `json:"fork"`
	ForksCount                    int64            `json:"forks_count"`
	FullName                      string           `json:"full_name"`
	GloballyEditableWiki          bool             `json:"globally_editable_wiki"`
	HasActions                    bool             `json:"has_actions"`
	HasIssues                     bool             `json:"has_issues"`
	HasPackages                   bool             `json:"has_packages"`
	HasProjects                   bool             `json:"has_projects"`
	HasPullRequests               bool             `json:"has_pull_requests"`
	HasReleases                   bool             `json:"has_releases"`
	// is the wiki enabled
	HasWiki bool `json:"has_wiki"`
	// have wiki pages ever been created
	HasWikiContents           bool             `json:"has_wiki_contents"`
	HTMLURL                   string           `json:"html_url"`
	ID                        int64            `json:"id"`
	IgnoreWhitespaceConflicts bool             `json:"ignore_whitespace_conflicts"`
	Internal                  bool             `json:"internal"`
	InternalTracker           *InternalTracker `json:"internal_tracker"`
	Language                  string           `json:"language"`
	LanguagesURL              string           `json:"languages_url"`
	Link                      string           `json:"link"`
	Mirror                    bool             `json:"mirror"`
	MirrorInterval            string           `json:"mirror_interval"`
	MirrorUpdated             time.Time        `json:"mirror_updated"`
	Name                      string           `json:"name"`
	// ObjectFormatName of the underlying git repository
	ObjectFormatName string        `json:"object_format_name"`
	OpenIssuesCount  int64         `json:"open_issues_count"`
	OpenPrCounter    int64         `json:"open_pr_counter"`
	OriginalURL      string        `json:"original_url"`
	Owner            *User         `json:"owner"`
	Parent           *Repository   `json:"parent"`
	Permissions      *Permission   `json:"permissions"`
	Private          bool          `json:"private"`
	ReleaseCounter   int64         `json:"release_counter"`
	RepoTransfer     *RepoTransfer `json:"repo_transfer"`
	Size             int64         `json:"size"`
	SSHURL           string        `json:"ssh_url"`
	StarsCount       int64         `json:"stars_count"`
	Template         bool          `json:"template"`
	Topics           []string      `json:"topics"`
	UpdatedAt        time.Time     `json:"updated_at"`
	URL              string        `json:"url"`
	WatchersCount    int64         `json:"watchers_count"`
	Website          string        `json:"website"`
	WikiBranch       string        `json:"wiki_branch"`
	WikiCloneURL     string        `json:"wiki_clone_url"`
	WikiSSHURL       string        `json:"wiki_ssh_url"`
}

// ExternalTracker: represents settings for external tracker
type ExternalTracker struct {
	// External Issue Tracker URL Format. Use the placeholders {user}, {repo} and {index} for the username, repository name and issue index.
	ExternalTrackerFormat string `json:"external_tracker_format"`
	// External Issue Tracker issue regular expression
	ExternalTrackerRegexpPattern string `json:"external_tracker_regexp_pattern"`
	// External Issue Tracker Number Format, either `numeric`, `alphanumeric`, or `regexp`
	ExternalTrackerStyle string `json:"external_tracker_style"`
	// URL of external issue tracker.
	ExternalTrackerURL string `json:"external_tracker_url"`
}

// ExternalWiki: represents setting for external wiki
type ExternalWiki struct {
	// URL of external wiki.
	ExternalWikiURL string `json:"external_wiki_url"`
}

// InternalTracker: represents settings for internal tracker
type InternalTracker struct {
	// Let only contributors track time (Built-in issue tracker)
	AllowOnlyContributorsToTrackTime bool `json:"allow_only_contributors_to_track_time"`
	// Enable dependencies for issues and pull requests (Built-in issue tracker)
	EnableIssueDependencies bool `json:"enable_issue_dependencies"`
	// Enable time tracking (Built-in issue tracker)
	EnableTimeTracker bool `json:"enable_time_tracker"`
}

// Permission: represents a set of permissions
type Permission struct {
	Admin bool `json:"admin"`
	Pull  bool `json:"pull"`
	Push  bool `json:"push"`
}

// RepoTransfer: represents a pending repo transfer
type RepoTransfer struct {
	Doer      *User   `json:"doer"`
	Recipient *User   `json:"recipient"`
	Teams     []*Team `json:"teams"`
}

// Team: represents a team in an organization
type Team struct {
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
	Description             string            `json:"description"`
	ID                      int64             `json:"id"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	Name                    string            `json:"name"`
	Organization            *Organization     `json:"organization"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
}

// Organization: represents an organization
type Organization struct {
	AvatarURL                 string    `json:"avatar_url"`
	Created                   time.Time `json:"created"`
	Description               string    `json:"description"`
	Email                     string    `json:"email"`
	FullName                  string    `json:"full_name"`
	ID                        int64     `json:"id"`
	Location                  string    `json:"location"`
	Name                      string    `json:"name"`
	RepoAdminChangeTeamAccess bool      `json:"repo_admin_change_team_access"`
	// deprecated
	Username   string `json:"username"`
	Visibility string `json:"visibility"`
	Website    string `json:"website"`
}

// User: represents a user
type User struct {
	// Is user active
	Active bool `json:"active"`
	// URL to the user's avatar
	AvatarURL string    `json:"avatar_url"`
	Created   time.Time `json:"created"`
	// the user's description
	Description string `json:"description"`
	Email       string `json:"email"`
	// user counts
	FollowersCount int64 `json:"followers_count"`
	FollowingCount int64 `json:"following_count"`
	// the user's full name
	FullName string `json:"full_name"`
	// URL to the user's profile page
	HTMLURL string `json:"html_url"`
	// the user's id
	ID int64 `json:"id"`
	// Is the user an administrator
	IsAdmin bool `json:"is_admin"`
	// User locale
	Language  string    `json:"language"`
	LastLogin time.Time `json:"last_login"`
	// the user's location
	Location string `json:"location"`
	// the user's username
	Login string `json:"login"`
	// the user's authentication sign-in name.
	LoginName string `json:"login_name"`
	// Is user login prohibited
	ProhibitLogin bool `json:"prohibit_login"`
	// the user's pronouns
	Pronouns string `json:"pronouns"`
	// Is user restricted
	Restricted bool `json:"restricted"`
	// The ID of the user's Authentication Source
	SourceID          int64 `json:"source_id"`
	StarredReposCount int64 `json:"starred_repos_count"`
	// User visibility level option: public, limited, private
	Visibility string `json:"visibility"`
	// the user's website
	Website string `json:"website"`
}

// Issue: represents an issue in a repository
type Issue struct {
	Assets           []*Attachment    `json:"assets"`
	Assignee         *User            `json:"assignee"`
	Assignees        []*User          `json:"assignees"`
	Body             string           `json:"body"`
	ClosedAt         time.Time        `json:"closed_at"`
	Comments         int64            `json:"comments"`
	CreatedAt        time.Time        `json:"created_at"`
	DueDate          time.Time        `json:"due_date"`
	HTMLURL          string           `json:"html_url"`
	ID               int64            `json:"id"`
	IsLocked         bool             `json:"is_locked"`
	Labels           []*Label         `json:"labels"`
	Milestone        *Milestone       `json:"milestone"`
	Number           int64            `json:"number"`
	OriginalAuthor   string           `json:"original_author"`
	OriginalAuthorID int64            `json:"original_author_id"`
	PinOrder         int64            `json:"pin_order"`
	PullRequest      *PullRequestMeta `json:"pull_request"`
	Ref              string           `json:"ref"`
	Repository       *RepositoryMeta  `json:"repository"`
	State            string           `json:"state"`
	Title            string           `json:"title"`
	UpdatedAt        time.Time        `json:"updated_at"`
	URL              string           `json:"url"`
	User             *User            `json:"user"`
}

// Attachment: a generic attachment
type Attachment struct {
	BrowserDownloadURL string    `json:"browser_download_url"`
	CreatedAt          time.Time `json:"created_at"`
	DownloadCount      int64     `json:"download_count"`
	ID                 int64     `json:"id"`
	Name               string    `json:"name"`
	Size               int64     `json:"size"`
	Type               string    `json:"type"`
	Uuid               string    `json:"uuid"`
}

// Label: a label to an issue or a pr
type Label struct {
	Color       string `json:"color"`
	Description string `json:"description"`
	Exclusive   bool   `json:"exclusive"`
	ID          int64  `json:"id"`
	IsArchived  bool   `json:"is_archived"`
	Name        string `json:"name"`
	URL         string `json:"url"`
}

// Milestone: milestone is a collection of issues on one repository
type Milestone struct {
	ClosedAt     time.Time `json:"closed_at"`
	ClosedIssues int64     `json:"closed_issues"`
	CreatedAt    time.Time `json:"created_at"`
	Description  string    `json:"description"`
	DueOn        time.Time `json:"due_on"`
	ID           int64     `json:"id"`
	OpenIssues   int64     `json:"open_issues"`
	State        string    `json:"state"`
	Title        string    `json:"title"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// PullRequestMeta: PR info if an issue is a PR
type PullRequestMeta struct {
	Draft    bool      `json:"draft"`
	HTMLURL  string    `json:"html_url"`
	Merged   bool      `json:"merged"`
	MergedAt time.Time `json:"merged_at"`
}

// RepositoryMeta: basic repository information
type RepositoryMeta struct {
	FullName string `json:"full_name"`
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
}

// CreateIssueOption: options to create one issue
type CreateIssueOption struct {
	// deprecated
	Assignee  string    `json:"assignee,omitempty"`
	Assignees []string  `json:"assignees,omitzero"`
	Body      string    `json:"body,omitempty"`
	Closed    bool      `json:"closed,omitempty"`
	DueDate   time.Time `json:"due_date,omitzero"`
	// list of label ids
	Labels []int64 `json:"labels,omitzero"`
	// milestone id
	Milestone int64  `json:"milestone,omitempty"`
	Ref       string `json:"ref,omitempty"`
	Title     string `json:"title"`
}

// EditIssueOption: options for editing an issue
type EditIssueOption struct {
	// deprecated
	Assignee     *string    `json:"assignee,omitempty"`
	Assignees    []string   `json:"assignees,omitzero"`
	Body         *string    `json:"body,omitempty"`
	DueDate      *time.Time `json:"due_date,omitempty"`
	Milestone    *int64     `json:"milestone,omitempty"`
	Ref          *string    `json:"ref,omitempty"`
	State        *string    `json:"state,omitempty"`
	Title        *string    `json:"title,omitempty"`
	UnsetDueDate *bool      `json:"unset_due_date,omitempty"`
	UpdatedAt    *time.Time `json:"updated_at,omitempty"`
}

// NotificationThread: expose Notification on API
type NotificationThread struct {
	ID         int64                `json:"id"`
	Pinned     bool                 `json:"pinned"`
	Repository *Repository          `json:"repository"`
	Subject    *NotificationSubject `json:"subject"`
	Unread     bool                 `json:"unread"`
	UpdatedAt  time.Time            `json:"updated_at"`
	URL        string               `json:"url"`
}

// NotificationSubject: contains the notification subject (Issue/Pull/Commit)
type NotificationSubject struct {
	HTMLURL              string `json:"html_url"`
	LatestCommentHTMLURL string `json:"latest_comment_html_url"`
	LatestCommentURL     string `json:"latest_comment_url"`
	State                string `json:"state"`
	Title                string `json:"title"`
	Type                 string `json:"type"`
	URL                  string `json:"url"`
}

// RepoTopicOptions: a collection of repo topic names
type RepoTopicOptions struct {
	// list of topic names
	Topics []string `json:"topics,omitzero"`
}

package main

import (
	"fmt"
	"sort"
	"strings"
)

// This file maps the spec's definitions to Go types.
//
// Response data uses value fields: string, int64, float64, bool, time.Time
// for date-time, slices, maps; nested objects are pointers (*User) and arrays
// of objects are []*T, so that an absent field and JSON null both decode to
// the zero value. Request bodies (definitions reachable from a body
// parameter and from no response) get omitempty/omitzero so that only set
// fields are sent, except required fields, which are always sent. The body
// of a PATCH operation is a partial update: its scalar fields become
// pointers, so that "not set" (nil) differs from "set to zero".

type kind int

const (
	kString kind = iota
	kInt
	kFloat
	kBool
	kTime     // time.Time
	kDuration // time.Duration
	kAny      // any
	kSlice
	kMap // map[string]elem
	kNamed
)

// gtype is a Go type in the generated code.
type gtype struct {
	kind kind
	elem *gtype // kSlice, kMap
	name string // kNamed: the Go type name
}

var (
	tString   = &gtype{kind: kString}
	tInt      = &gtype{kind: kInt}
	tFloat    = &gtype{kind: kFloat}
	tBool     = &gtype{kind: kBool}
	tTime     = &gtype{kind: kTime}
	tDuration = &gtype{kind: kDuration}
	tAny      = &gtype{kind: kAny}
)

func sliceOf(t *gtype) *gtype { return &gtype{kind: kSlice, elem: t} }
func mapOf(t *gtype) *gtype   { return &gtype{kind: kMap, elem: t} }

type category int

const (
	catStruct category = iota
	catAlias           // type X = Y (enums, scalar definitions, $ref aliases)
	catSlice           // type X []Y
	catMap             // type X map[string]Y
)

type shape int

const (
	shapeResponse shape = iota // value fields, decoded from responses
	shapeCreate                // request body: omitempty/omitzero, required always sent
	shapeEdit                  // PATCH body: pointer scalars, nil is not sent
)

// typeDef is one generated named type.
type typeDef struct {
	specName string // definition name, or owner.property for inline objects
	name     string // Go name
	doc      string // the spec's description (raw), or the curated typeDocs text
	curated  bool   // doc is from typeDocs: a whole sentence, written for the spec's name
	cat      category
	target   *gtype // catAlias, catSlice, catMap
	shape    shape
	fields   []*field
	enum     []enumValue
	required map[string]bool
}

type field struct {
	name     string // Go name
	json     string // wire name
	typ      *gtype
	doc      string
	enum     []string
	required bool
}

type enumValue struct{ name, value string }

// enumValues are the known values of the spec's string definitions. The spec
// lists them only in prose (or not at all); these come from Forgejo's
// modules/structs. The types are open: any other value the instance sends
// decodes unchanged. A new string definition without an entry here stops
// the generator.
var enumValues = map[string][]enumValue{
	"StateType": {{"StateOpen", "open"}, {"StateClosed", "closed"}, {"StateAll", "all"}},
	"NotifySubjectType": {
		{"NotifySubjectIssue", "Issue"}, {"NotifySubjectPull", "Pull"},
		{"NotifySubjectCommit", "Commit"}, {"NotifySubjectRepository", "Repository"},
	},
	"ReviewStateType": {
		{"ReviewStateApproved", "APPROVED"}, {"ReviewStatePending", "PENDING"},
		{"ReviewStateComment", "COMMENT"}, {"ReviewStateRequestChanges", "REQUEST_CHANGES"},
		{"ReviewStateRequestReview", "REQUEST_REVIEW"},
	},
	"CommitStatusState": {
		{"CommitStatusPending", "pending"}, {"CommitStatusSuccess", "success"},
		{"CommitStatusError", "error"}, {"CommitStatusFailure", "failure"},
		{"CommitStatusWarning", "warning"}, {"CommitStatusSkipped", "skipped"},
	},
	"IssueFormFieldType": {
		{"IssueFormFieldMarkdown", "markdown"}, {"IssueFormFieldTextarea", "textarea"},
		{"IssueFormFieldInput", "input"}, {"IssueFormFieldDropdown", "dropdown"},
		{"IssueFormFieldCheckboxes", "checkboxes"},
	},
	"IssueFormFieldVisible": {{"IssueFormFieldVisibleForm", "form"}, {"IssueFormFieldVisibleContent", "content"}},
}

// enumTypes are the named string types generated for the values the spec
// enumerates inline (on a property or a query parameter) rather than as a
// definition. Like the definitions of enumValues they are open: any other
// value decodes unchanged. fieldEnums and queryEnums say where each is used.
var enumTypes = map[string][]enumValue{
	"MergeStyle": {
		{"MergeStyleMerge", "merge"}, {"MergeStyleRebase", "rebase"}, {"MergeStyleRebaseMerge", "rebase-merge"},
		{"MergeStyleSquash", "squash"}, {"MergeStyleFastForwardOnly", "fast-forward-only"},
		{"MergeStyleManuallyMerged", "manually-merged"},
	},
	"AccessMode": {
		{"AccessModeNone", "none"}, {"AccessModeRead", "read"}, {"AccessModeWrite", "write"},
		{"AccessModeAdmin", "admin"}, {"AccessModeOwner", "owner"},
	},
	"HookType": {
		{"HookTypeForgejo", "forgejo"}, {"HookTypeDingtalk", "dingtalk"}, {"HookTypeDiscord", "discord"},
		{"HookTypeGitea", "gitea"}, {"HookTypeGogs", "gogs"}, {"HookTypeMSTeams", "msteams"},
		{"HookTypeSlack", "slack"}, {"HookTypeTelegram", "telegram"}, {"HookTypeFeishu", "feishu"},
		{"HookTypeWechatWork", "wechatwork"}, {"HookTypePackagist", "packagist"},
	},
	"Visibility":   {{"VisibilityPublic", "public"}, {"VisibilityLimited", "limited"}, {"VisibilityPrivate", "private"}},
	"RunnerStatus": {{"RunnerOffline", "offline"}, {"RunnerIdle", "idle"}, {"RunnerActive", "active"}},
	"ActionStatus": {
		{"ActionStatusUnknown", "unknown"}, {"ActionStatusWaiting", "waiting"}, {"ActionStatusRunning", "running"},
		{"ActionStatusSuccess", "success"}, {"ActionStatusFailure", "failure"}, {"ActionStatusCancelled", "cancelled"},
		{"ActionStatusSkipped", "skipped"}, {"ActionStatusBlocked", "blocked"},
	},
	"AttachmentType": {{"AttachmentTypeAttachment", "attachment"}, {"AttachmentTypeExternal", "external"}},
	"FileOperation":  {{"FileOperationCreate", "create"}, {"FileOperationUpdate", "update"}, {"FileOperationDelete", "delete"}},
	"ObjectFormat":   {{"ObjectFormatSHA1", "sha1"}, {"ObjectFormatSHA256", "sha256"}},
	"TrustModel": {
		{"TrustModelDefault", "default"}, {"TrustModelCollaborator", "collaborator"},
		{"TrustModelCommitter", "committer"}, {"TrustModelCollaboratorCommitter", "collaboratorcommitter"},
	},
	"GitService": {
		{"GitServicePlain", "git"}, {"GitServiceGitHub", "github"}, {"GitServiceGitea", "gitea"},
		{"GitServiceGitLab", "gitlab"}, {"GitServiceGogs", "gogs"}, {"GitServiceOneDev", "onedev"},
		{"GitServiceGitBucket", "gitbucket"}, {"GitServiceCodebase", "codebase"},
		{"GitServiceForgejo", "forgejo"}, {"GitServicePagure", "pagure"},
	},
	"ActivityOpType": activityOps(),
	"IssueType":      {{"IssueTypeIssues", "issues"}, {"IssueTypePulls", "pulls"}},
	"SortOrder":      {{"SortAsc", "asc"}, {"SortDesc", "desc"}},
	"PackageType":    packageTypes(),
	"Whitespace": {
		{"WhitespaceIgnoreAll", "ignore-all"}, {"WhitespaceIgnoreChange", "ignore-change"},
		{"WhitespaceIgnoreEOL", "ignore-eol"}, {"WhitespaceShowAll", "show-all"},
	},
	"DiffType": {{"DiffTypeDiff", "diff"}, {"DiffTypePatch", "patch"}},
	"UserSort": {
		{"UserSortOldest", "oldest"}, {"UserSortNewest", "newest"}, {"UserSortAlphabetically", "alphabetically"},
		{"UserSortReverseAlphabetically", "reversealphabetically"}, {"UserSortRecentUpdate", "recentupdate"},
		{"UserSortLeastUpdate", "leastupdate"},
	},
	"LabelSort": {
		{"LabelSortMostIssues", "mostissues"}, {"LabelSortLeastIssues", "leastissues"},
		{"LabelSortReverseAlphabetically", "reversealphabetically"},
	},
	"IssueSort": {
		{"IssueSortRelevance", "relevance"}, {"IssueSortLatest", "latest"}, {"IssueSortOldest", "oldest"},
		{"IssueSortRecentUpdate", "recentupdate"}, {"IssueSortLeastUpdate", "leastupdate"},
		{"IssueSortMostComment", "mostcomment"}, {"IssueSortLeastComment", "leastcomment"},
		{"IssueSortNearDueDate", "nearduedate"},
	},
	"RepoSort": {
		{"RepoSortAlpha", "alpha"}, {"RepoSortCreated", "created"}, {"RepoSortUpdated", "updated"},
		{"RepoSortSize", "size"}, {"RepoSortGitSize", "git_size"}, {"RepoSortLFSSize", "lfs_size"},
		{"RepoSortID", "id"}, {"RepoSortStars", "stars"},
	},
	"RepoOrderBy": {
		{"RepoOrderByName", "name"}, {"RepoOrderByID", "id"}, {"RepoOrderByNewest", "newest"},
		{"RepoOrderByOldest", "oldest"}, {"RepoOrderByRecentUpdate", "recentupdate"},
		{"RepoOrderByLeastUpdate", "leastupdate"}, {"RepoOrderByReverseAlphabetically", "reversealphabetically"},
		{"RepoOrderByAlphabetically", "alphabetically"},
	},
	"StatusSort": {
		{"StatusSortOldest", "oldest"}, {"StatusSortRecentUpdate", "recentupdate"},
		{"StatusSortLeastUpdate", "leastupdate"}, {"StatusSortLeastIndex", "leastindex"},
		{"StatusSortHighestIndex", "highestindex"},
	},
	"PullRequestSort": {
		{"PullRequestSortOldest", "oldest"}, {"PullRequestSortRecentUpdate", "recentupdate"},
		{"PullRequestSortRecentClose", "recentclose"}, {"PullRequestSortLeastUpdate", "leastupdate"},
		{"PullRequestSortMostComment", "mostcomment"}, {"PullRequestSortLeastComment", "leastcomment"},
		{"PullRequestSortPriority", "priority"},
	},
	// The subject-type filter of a notification listing: lower case, unlike
	// the NotifySubjectType a notification carries.
	"NotifySubjectFilter": {
		{"NotifySubjectFilterIssue", "issue"}, {"NotifySubjectFilterPull", "pull"},
		{"NotifySubjectFilterRepository", "repository"},
	},
}

func activityOps() []enumValue {
	var out []enumValue
	for _, v := range []string{"create_repo", "rename_repo", "star_repo", "watch_repo", "commit_repo", "create_issue",
		"create_pull_request", "transfer_repo", "push_tag", "comment_issue", "merge_pull_request", "close_issue",
		"reopen_issue", "close_pull_request", "reopen_pull_request", "delete_tag", "delete_branch", "mirror_sync_push",
		"mirror_sync_create", "mirror_sync_delete", "approve_pull_request", "reject_pull_request", "comment_pull",
		"publish_release", "pull_review_dismissed", "pull_request_ready_for_review", "auto_merge_pull_request"} {
		out = append(out, enumValue{"ActivityOp" + exported(v), v})
	}
	return out
}

func packageTypes() []enumValue {
	var out []enumValue
	for _, v := range []string{"alpine", "cargo", "chef", "composer", "conan", "conda", "container", "cran", "debian",
		"generic", "go", "helm", "maven", "npm", "nuget", "pub", "pypi", "rpm", "rubygems", "swift", "vagrant"} {
		out = append(out, enumValue{"PackageType" + exported(v), v})
	}
	return out
}

// fieldEnums types string properties with an enumeration, keyed
// "Definition.wire_name": where the spec enumerates the values, and where
// it leaves the same values unstated (a response's state, an edit body's
// state).
var fieldEnums = map[string]string{
	"MergePullRequestOption.Do":           "MergeStyle",
	"AddCollaboratorOption.permission":    "AccessMode",
	"CreateTeamOption.permission":         "AccessMode",
	"EditTeamOption.permission":           "AccessMode",
	"Team.permission":                     "AccessMode",
	"CreateHookOption.type":               "HookType",
	"Hook.type":                           "HookType",
	"CreateOrgOption.visibility":          "Visibility",
	"EditOrgOption.visibility":            "Visibility",
	"Organization.visibility":             "Visibility",
	"ActionRunner.status":                 "RunnerStatus",
	"ActionRun.status":                    "ActionStatus",
	"ActionTask.status":                   "ActionStatus",
	"ActionRunJob.status":                 "ActionStatus",
	"ActionRun.conclusion":                "ActionStatus",
	"ActionRunJob.conclusion":             "ActionStatus",
	"Attachment.type":                     "AttachmentType",
	"ChangeFileOperation.operation":       "FileOperation",
	"CreateRepoOption.object_format_name": "ObjectFormat",
	"Repository.object_format_name":       "ObjectFormat",
	"CreateRepoOption.trust_model":        "TrustModel",
	"MigrateRepoOptions.service":          "GitService",
	"Activity.op_type":                    "ActivityOpType",
	"CreateMilestoneOption.state":         "StateType",
	"EditMilestoneOption.state":           "StateType",
	"EditIssueOption.state":               "StateType",
	"EditPullRequestOption.state":         "StateType",
	"CreateStatusOption.state":            "CommitStatusState",
	"SubmitPullReviewOptions.event":       "ReviewStateType",
	"CreatePullReviewOptions.event":       "ReviewStateType",
	"NotificationSubject.type":            "NotifySubjectType",
	"NotificationSubject.state":           "StateType",
	"IssueFormField.type":                 "IssueFormFieldType",
}

// queryEnums types query parameters with an enumeration, keyed
// "operationId.name": a string, or a list of strings (its elements). Every
// enumeration the spec states on a query parameter is here
// (checkSpecEnums), and one it states only in prose may be
// (issueGetMilestonesList.state).
var queryEnums = map[string]string{
	"issueGetMilestonesList.state":       "StateType",
	"adminSearchUsers.sort":              "UserSort",
	"userSearch.sort":                    "UserSort",
	"orgListLabels.sort":                 "LabelSort",
	"issueListLabels.sort":               "LabelSort",
	"issueSearchIssues.sort":             "IssueSort",
	"issueListIssues.sort":               "IssueSort",
	"repoSearch.sort":                    "RepoSort",
	"userCurrentListRepos.order_by":      "RepoOrderBy",
	"repoListStatusesByRef.sort":         "StatusSort",
	"repoListStatuses.sort":              "StatusSort",
	"repoListPullRequests.sort":          "PullRequestSort",
	"ListActionRuns.status":              "ActionStatus",
	"ListActionTasks.status":             "ActionStatus",
	"notifyGetList.subject-type":         "NotifySubjectFilter",
	"notifyGetRepoList.subject-type":     "NotifySubjectFilter",
	"issueSearchIssues.state":            "StateType",
	"issueListIssues.state":              "StateType",
	"repoListPullRequests.state":         "StateType",
	"issueSearchIssues.type":             "IssueType",
	"issueListIssues.type":               "IssueType",
	"repoSearch.order":                   "SortOrder",
	"listPackages.type":                  "PackageType",
	"repoGetPullRequestFiles.whitespace": "Whitespace",
	"repoUpdatePullRequest.style":        "MergeStyle",
	"repoListStatusesByRef.state":        "CommitStatusState",
	"repoListStatuses.state":             "CommitStatusState",
}

// pathEnums types path parameters with an enumeration, keyed
// "operationId.name".
var pathEnums = map[string]string{
	"repoDownloadPullDiffOrPatch.diffType":   "DiffType",
	"repoDownloadCommitDiffOrPatch.diffType": "DiffType",
}

// fieldRenames give properties whose wire names expose the server's
// internals a Go name of their own, keyed "Definition.wire_name"; the JSON
// tag keeps the wire name.
var fieldRenames = map[string]string{
	"MergePullRequestOption.Do":                "Style",
	"MergePullRequestOption.MergeTitleField":   "Title",
	"MergePullRequestOption.MergeMessageField": "Message",
	"MergePullRequestOption.MergeCommitID":     "CommitID",
}

// fieldTypes replace a property's type with a hand-written one, keyed
// "Definition.wire_name": IssueLabelsOption.labels is an array of label IDs
// or names, which LabelRef (labels.go) marshals.
var fieldTypes = map[string]*gtype{
	"IssueLabelsOption.labels": sliceOf(&gtype{kind: kNamed, name: "LabelRef"}),
}

// usedTables, usedRenames and usedQueries record which entries of
// fieldEnums, fieldRenames and queryEnums applied, so that a typo fails
// the generator (checkEnumTables) instead of leaving a field untyped.
var usedTables, usedRenames, usedQueries, usedPaths = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}

func checkEnumTables() error {
	var missing []string
	for _, t := range []struct {
		table map[string]string
		used  map[string]bool
	}{{fieldEnums, usedTables}, {fieldRenames, usedRenames}, {queryEnums, usedQueries}, {pathEnums, usedPaths}} {
		for _, k := range sortedKeys(t.table) {
			if !t.used[k] {
				missing = append(missing, k)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("enum and rename table entries that match no property or parameter: %s", strings.Join(missing, ", "))
	}
	return nil
}

// checkSpecEnums fails on an enumeration the spec states (an enum on a
// parameter, a property, or the items of either) that no table types: every
// enumerated value set is a named string type, so that the values are
// constants a caller finds instead of strings read off the spec.
func checkSpecEnums(s *Spec) error {
	var untyped []string
	has := func(enum []any, items *Schema) bool {
		return len(enum) > 0 || (items != nil && len(items.Enum) > 0)
	}
	for _, id := range sortedKeys(s.Ops) {
		for _, p := range s.Ops[id].Parameters {
			key := id + "." + p.Name
			if !has(p.Enum, p.Items) {
				continue
			}
			switch _, q := queryEnums[key]; {
			case p.In == "query" && q:
			case p.In == "path" && pathEnums[key] != "":
			default:
				untyped = append(untyped, fmt.Sprintf("%s parameter %s", p.In, key))
			}
		}
	}
	for _, name := range sortedKeys(s.Definitions) {
		def := s.Definitions[name]
		if len(def.Enum) > 0 {
			untyped = append(untyped, "definition "+name)
		}
		for _, prop := range sortedKeys(def.Properties) {
			if ps := def.Properties[prop]; has(ps.Enum, ps.Items) && fieldEnums[name+"."+prop] == "" {
				untyped = append(untyped, "property "+name+"."+prop)
			}
		}
	}
	if len(untyped) > 0 {
		return fmt.Errorf("the spec enumerates values that no named type holds (add them to enumTypes and fieldEnums, queryEnums or pathEnums): %s", strings.Join(untyped, ", "))
	}
	return nil
}

// typeRenames are definitions whose Go name is not the one the naming rules
// below give them, with the reason. The generator fails on an entry that
// names no definition, and on two definitions that end with one Go name.
var typeRenames = map[string]string{
	// The body of the review-request operations: the mechanical name,
	// PullReviewRequestRequest, says "request" twice; it holds the reviewers
	// and team reviewers to request or to withdraw.
	"PullReviewRequestOptions": "PullReviewersRequest",
	// Parts of request bodies, never sent on their own: "Options" is the
	// suffix of query structs (docs/RENAMES.md), so they are named for what
	// they hold.
	"CommitDateOptions":      "CommitDates",
	"RepoTargetOption":       "RepoTarget",
	"CreateHookOptionConfig": "HookConfig",
}

// The naming rules of models (docs/RENAMES.md, "The vocabulary"):
//
//   - A definition sent as a JSON request body (the schema of a body
//     parameter) and received in no response ends in Request: its Option or
//     Options suffix is replaced (CreateIssueOption becomes
//     CreateIssueRequest, EditAttachmentOptions EditAttachmentRequest), and a
//     name without one gets Request appended (IssueMeta becomes
//     IssueMetaRequest).
//   - A definition that is both sent and received keeps the spec's name: it
//     is the resource, not a request for one (the pinned spec has none).
//   - Every other definition keeps the spec's name, unless typeRenames says
//     otherwise.
//
// goNames holds every definition's Go name; buildModels fills it
// (modelNames) before any type is built.
var goNames map[string]string

// modelNames computes the Go name of every definition of s by the rules
// above, and fails on a collision: two definitions with one Go name, or a
// Go name that the package declares by hand (the Request of Client.Do, for
// one) — checkCollisions finds the second kind too, after the fact.
func modelNames(s *Spec) (map[string]string, error) {
	_, resp, _ := bodyUse(s)
	direct := map[string]bool{}
	for _, op := range s.Ops {
		for _, p := range op.Parameters {
			if p.In == "body" {
				if name := p.Schema.refName(); name != "" {
					direct[name] = true
				}
			}
		}
	}
	names := map[string]string{}
	owner := map[string]string{}
	for _, name := range sortedKeys(s.Definitions) {
		goName := name
		if direct[name] && !resp[name] {
			stem := strings.TrimSuffix(strings.TrimSuffix(name, "Options"), "Option")
			goName = stem + "Request"
		}
		if n, ok := typeRenames[name]; ok {
			goName = n
		}
		if reservedNames[goName] {
			return nil, fmt.Errorf("definition %s would be named %s, which the package declares by hand: add it to typeRenames", name, goName)
		}
		if other, dup := owner[goName]; dup {
			return nil, fmt.Errorf("definitions %s and %s would both be named %s: add one to typeRenames", other, name, goName)
		}
		owner[goName], names[name] = name, goName
	}
	for name := range typeRenames {
		if s.Definitions[name] == nil {
			return nil, fmt.Errorf("typeRenames names %s, which the spec does not define", name)
		}
	}
	return names, nil
}

// reservedNames are hand-written names of the package that a model could
// take: Request is what Client.Do sends, Option and RequestOption are
// options.
var reservedNames = map[string]bool{"Request": true, "ClientOption": true, "RequestOption": true, "Response": true}

// usedDefinitions are the definitions some operation uses: reachable from
// a body parameter or from a successful (2xx) response. The error bodies
// the spec declares (APIError, APINotFound, ...) are reachable only from
// error responses, which a call turns into an *APIError (errors.go) rather
// than decoding them into a model, so they are not generated.
func usedDefinitions(s *Spec) map[string]bool {
	used := map[string]bool{}
	var walk func(sc *Schema)
	walk = func(sc *Schema) {
		if sc == nil {
			return
		}
		if name := sc.refName(); name != "" {
			if !used[name] {
				used[name] = true
				walk(s.Definitions[name])
			}
			return
		}
		walk(sc.Items)
		walk(sc.AdditionalProperties)
		for _, p := range sc.Properties {
			walk(p)
		}
	}
	for _, op := range s.Ops {
		for _, p := range op.Parameters {
			if p.In == "body" {
				walk(p.Schema)
			}
		}
		for code, r := range op.Responses {
			if !strings.HasPrefix(code, "2") {
				continue
			}
			if r.Ref != "" {
				r = s.Responses[r.Ref[strings.LastIndex(r.Ref, "/")+1:]]
			}
			walk(r.Schema)
		}
	}
	return used
}

// typeDocs are doc comments for definitions the spec leaves undescribed.
var typeDocs = map[string]string{
	"APRemoteFollowOption":           "APRemoteFollowOption names a remote ActivityPub actor to follow.",
	"ActionVariable":                 "ActionVariable is a variable of Forgejo Actions, as the API returns it.",
	"Activity":                       "Activity is one entry of an activity feed.",
	"ActivityPub":                    "ActivityPub is the JSON-LD context of an ActivityPub object.",
	"CreatePullReviewCommentOptions": "CreatePullReviewCommentOptions is the body of a new review comment; it is the same type as CreatePullReviewComment.",
	"IssueConfig":                    "IssueConfig is a repository's issue configuration (.forgejo/ISSUE_TEMPLATE/config.yaml).",
	"IssueConfigContactLink":         "IssueConfigContactLink is a contact link of an issue configuration.",
	"IssueConfigValidation":          "IssueConfigValidation reports whether a repository's issue configuration is valid.",
	"IssueTemplateLabels":            "IssueTemplateLabels are the label names an issue template applies.",
	"NoteOptions":                    "NoteOptions is the body of a git note to set.",
	"RepoTargetOption":               "RepoTargetOption names a target repository by owner and name.",
}

// models is the set of generated types, by Go name.
type models struct {
	spec  *Spec
	types map[string]*typeDef
	byDef map[string]*typeDef // spec definition name -> type
}

func goTypeName(def string) string {
	if n, ok := goNames[def]; ok {
		return n
	}
	return def
}

// buildModels maps every definition to a Go type, with the shape its use
// in the spec calls for.
func buildModels(s *Spec) (*models, error) {
	m := &models{spec: s, types: map[string]*typeDef{}, byDef: map[string]*typeDef{}}
	names, err := modelNames(s)
	if err != nil {
		return nil, err
	}
	goNames = names
	used := usedDefinitions(s)
	req, resp, edit := bodyUse(s)
	for _, name := range sortedKeys(enumTypes) {
		td := &typeDef{specName: "enum " + name, name: name, cat: catAlias, target: tString, enum: enumTypes[name],
			doc: name + " is a value the spec enumerates."}
		if err := m.add(td); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(s.Definitions) {
		if !used[name] {
			continue // no operation sends or returns it
		}
		def := s.Definitions[name]
		td := &typeDef{specName: name, name: goTypeName(name), doc: firstNonEmpty(typeDocs[name], def.Description, def.Title), curated: typeDocs[name] != ""}
		switch {
		case edit[name]:
			td.shape = shapeEdit
		case req[name] && !resp[name]:
			td.shape = shapeCreate
		default:
			td.shape = shapeResponse
		}
		if err := m.add(td); err != nil {
			return nil, err
		}
		if err := m.fill(td, def); err != nil {
			return nil, fmt.Errorf("definition %s: %w", name, err)
		}
	}
	return m, nil
}

func (m *models) add(td *typeDef) error {
	if other, dup := m.types[td.name]; dup {
		return fmt.Errorf("type %s generated twice (%s and %s)", td.name, other.specName, td.specName)
	}
	m.types[td.name] = td
	if !strings.Contains(td.specName, ".") {
		m.byDef[td.specName] = td
	}
	return nil
}

func (m *models) fill(td *typeDef, def *Schema) error {
	switch {
	case def.Ref != "":
		td.cat = catAlias
		td.target = &gtype{kind: kNamed, name: goTypeName(def.refName())}
	case def.Type == "object" && len(def.Properties) > 0:
		td.cat = catStruct
		td.required = map[string]bool{}
		for _, r := range def.Required {
			td.required[r] = true
		}
		seen := map[string]string{}
		for _, prop := range sortedKeys(def.Properties) {
			ps := def.Properties[prop]
			f := &field{name: exported(prop), json: prop, doc: ps.Description, required: td.required[prop]}
			if n, ok := fieldRenames[td.specName+"."+prop]; ok {
				usedRenames[td.specName+"."+prop] = true
				f.name = n
			}
			if f.name == "" {
				return fmt.Errorf("property %q has no Go name", prop)
			}
			if other, dup := seen[f.name]; dup {
				return fmt.Errorf("properties %q and %q both map to the Go field %s", other, prop, f.name)
			}
			seen[f.name] = prop
			for _, e := range ps.Enum {
				f.enum = append(f.enum, fmt.Sprint(e))
			}
			t, err := m.schemaType(ps, td, prop)
			if err != nil {
				return fmt.Errorf("property %s: %w", prop, err)
			}
			f.typ = t
			if n, ok := fieldEnums[td.specName+"."+prop]; ok {
				if t.kind != kString && t.kind != kNamed {
					return fmt.Errorf("property %s: fieldEnums types it %s but it is not a string", prop, n)
				}
				usedTables[td.specName+"."+prop] = true
				f.typ = &gtype{kind: kNamed, name: n}
			}
			if ft, ok := fieldTypes[td.specName+"."+prop]; ok {
				f.typ = ft
			}
			td.fields = append(td.fields, f)
		}
	case def.Type == "object" && def.AdditionalProperties != nil:
		td.cat = catMap
		t, err := m.schemaType(def.AdditionalProperties, td, "value")
		if err != nil {
			return err
		}
		td.target = mapOf(t)
	case def.Type == "object":
		td.cat = catMap
		td.target = mapOf(tAny)
	case def.Type == "array":
		td.cat = catSlice
		t, err := m.schemaType(def.Items, td, "item")
		if err != nil {
			return err
		}
		td.target = sliceOf(t)
	case def.Type == "string":
		vals, ok := enumValues[td.specName]
		if !ok {
			return fmt.Errorf("a string definition without known values: add it to enumValues")
		}
		td.cat = catAlias
		td.target = tString
		td.enum = vals
	case def.Type == "integer" && td.specName == "Duration":
		td.cat = catAlias
		td.target = tDuration
	case def.Type == "integer":
		td.cat = catAlias
		td.target = tInt
	default:
		return fmt.Errorf("unsupported definition type %q", def.Type)
	}
	return nil
}

// schemaType maps a property (or item) schema to a Go type; an inline
// object becomes a named struct owned by the enclosing type.
func (m *models) schemaType(s *Schema, owner *typeDef, prop string) (*gtype, error) {
	if s == nil {
		return tAny, nil
	}
	if s.Ref != "" {
		name := s.refName()
		if _, ok := m.spec.Definitions[name]; !ok {
			return nil, fmt.Errorf("unresolved $ref %s", s.Ref)
		}
		return &gtype{kind: kNamed, name: goTypeName(name)}, nil
	}
	switch s.Type {
	case "string":
		if s.Format == "date-time" {
			return tTime, nil
		}
		return tString, nil
	case "integer":
		return tInt, nil
	case "number":
		return tFloat, nil
	case "boolean":
		return tBool, nil
	case "array":
		t, err := m.schemaType(s.Items, owner, prop)
		if err != nil {
			return nil, err
		}
		return sliceOf(t), nil
	case "object":
		switch {
		case len(s.Properties) > 0:
			td := &typeDef{
				specName: owner.specName + "." + prop,
				name:     owner.name + exported(prop),
				doc:      s.Description,
				shape:    owner.shape,
			}
			if err := m.add(td); err != nil {
				return nil, err
			}
			if err := m.fill(td, s); err != nil {
				return nil, err
			}
			return &gtype{kind: kNamed, name: td.name}, nil
		case s.AdditionalProperties != nil:
			t, err := m.schemaType(s.AdditionalProperties, owner, prop)
			if err != nil {
				return nil, err
			}
			return mapOf(t), nil
		default:
			return mapOf(tAny), nil
		}
	case "":
		return tAny, nil
	}
	return nil, fmt.Errorf("unsupported schema type %q", s.Type)
}

// bodyUse computes which definitions are reachable from request bodies, from
// responses, and which are the body of a PATCH operation.
func bodyUse(s *Spec) (req, resp, edit map[string]bool) {
	req, resp, edit = map[string]bool{}, map[string]bool{}, map[string]bool{}
	var walk func(sc *Schema, set map[string]bool)
	walk = func(sc *Schema, set map[string]bool) {
		if sc == nil {
			return
		}
		if name := sc.refName(); name != "" {
			if set[name] {
				return
			}
			set[name] = true
			walk(s.Definitions[name], set)
			return
		}
		walk(sc.Items, set)
		walk(sc.AdditionalProperties, set)
		for _, p := range sc.Properties {
			walk(p, set)
		}
	}
	for _, op := range s.Ops {
		for _, p := range op.Parameters {
			if p.In == "body" {
				walk(p.Schema, req)
				if op.Verb == "PATCH" {
					if name := p.Schema.refName(); name != "" {
						edit[name] = true
					}
				}
			}
		}
		for _, r := range op.Responses {
			if r.Ref != "" {
				r = s.Responses[r.Ref[strings.LastIndex(r.Ref, "/")+1:]]
			}
			walk(r.Schema, resp)
		}
	}
	return req, resp, edit
}

// lookup returns the named type behind t, or nil.
func (m *models) lookup(t *gtype) *typeDef {
	if t == nil || t.kind != kNamed {
		return nil
	}
	return m.types[t.name]
}

// isStruct reports whether t names a generated struct (or an alias of
// one).
func (m *models) isStruct(t *gtype) bool {
	td := m.lookup(t)
	for td != nil && td.cat == catAlias && td.target.kind == kNamed {
		td = m.lookup(td.target)
	}
	return td != nil && td.cat == catStruct
}

// resolve follows aliases to the underlying type.
func (m *models) resolve(t *gtype) *gtype {
	for {
		td := m.lookup(t)
		if td == nil || td.cat != catAlias {
			return t
		}
		t = td.target
	}
}

// scalar reports whether t is a single value: string, number, bool, time
// or an alias of one.
func (m *models) scalar(t *gtype) bool {
	switch m.resolve(t).kind {
	case kString, kInt, kFloat, kBool, kTime, kDuration:
		return true
	}
	return false
}

// collection reports whether t is a slice or map, named or not.
func (m *models) collection(t *gtype) bool {
	r := m.resolve(t)
	if td := m.lookup(r); td != nil {
		return td.cat == catSlice || td.cat == catMap
	}
	return r.kind == kSlice || r.kind == kMap
}

// goType renders t as a Go type where values are held: structs behind
// pointers, everything else by value.
func (m *models) goType(t *gtype) string {
	switch t.kind {
	case kString:
		return "string"
	case kInt:
		return "int64"
	case kFloat:
		return "float64"
	case kBool:
		return "bool"
	case kTime:
		return "time.Time"
	case kDuration:
		return "time.Duration"
	case kAny:
		return "any"
	case kSlice:
		return "[]" + m.goType(t.elem)
	case kMap:
		return "map[string]" + m.goType(t.elem)
	case kNamed:
		if m.isStruct(t) {
			return "*" + t.name
		}
		return t.name
	}
	panic("unknown kind")
}

// fieldType renders a struct field's type and its JSON tag options for the
// type's shape.
func (m *models) fieldType(td *typeDef, f *field) (typ, opts string) {
	typ = m.goType(f.typ)
	if td.shape == shapeResponse || f.required {
		return typ, ""
	}
	switch {
	case m.collection(f.typ):
		return typ, ",omitzero"
	case td.shape == shapeEdit && m.scalar(f.typ), serverDefault[td.specName+"."+f.json]:
		return "*" + typ, ",omitempty"
	case m.resolve(f.typ).kind == kTime:
		return typ, ",omitzero"
	default:
		return typ, ",omitempty"
	}
}

// serverDefault lists create-body fields whose server-side default is not
// the Go zero value, so "not set" must differ from false: they become
// pointers like the fields of edit bodies. Keyed "Definition.wire_name".
// Gitea 1.27.3 defaults must_change_password to true when it is absent
// (docs/HAZARDS.md §19), and Forgejo reads both as optional.
var serverDefault = map[string]bool{
	"CreateUserOption.must_change_password": true,
	"CreateUserOption.restricted":           true,
}

// sortedTypes returns every generated type by Go name.
func (m *models) sortedTypes() []*typeDef {
	out := make([]*typeDef, 0, len(m.types))
	for _, td := range m.types {
		out = append(out, td)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

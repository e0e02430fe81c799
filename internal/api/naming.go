package api

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// serviceByTag maps a spec tag to the Go service that serves it.
var serviceByTag = map[string]string{
	"repository":    "Repos",
	"user":          "Users",
	"organization":  "Orgs",
	"issue":         "Issues",
	"admin":         "Admin",
	"miscellaneous": "Misc",
	"activitypub":   "ActivityPub",
	"notification":  "Notifications",
	"package":       "Packages",
	"settings":      "Settings",
}

// methodPrefixByTag is the operationId prefix the default naming rule strips
// for a tag. Tags without an entry (miscellaneous, package, settings) have no
// prefix to strip.
var methodPrefixByTag = map[string]string{
	"repository":   "repo",
	"user":         "user",
	"issue":        "issue",
	"organization": "org",
	"admin":        "admin",
	"notification": "notify",
	"activitypub":  "activitypub",
}

// ServiceForTag returns the Go service for a spec tag, or "" for a tag the
// table does not know. An operation belongs to the service of its first tag.
func ServiceForTag(tag string) string {
	return serviceByTag[tag]
}

// Services lists every service name in table order.
func Services() []string {
	return []string{"Repos", "Users", "Orgs", "Issues", "Admin", "Misc", "ActivityPub", "Notifications", "Packages", "Settings"}
}

// DefaultMethodName is the naming rule an Op's Method follows unless Renamed
// says otherwise: strip the prefix belonging to the operation's first tag
// (repo, user, issue, org, admin, notify, activitypub), but only when an
// upper-case letter follows it, then upper-case the first letter.
//
//	repoGet, [repository]                       -> Get
//	issueListIssues, [issue]                    -> ListIssues
//	notifyReadThread, [notification]            -> ReadThread
//	getGeneralAPISettings, [settings]           -> GetGeneralAPISettings
//	userTrackedTimes, [repository]              -> UserTrackedTimes
//
// Only the first tag's prefix is stripped, so a repository-tagged operation
// named user… keeps its prefix (and does not collide with repoTrackedTimes).
func DefaultMethodName(id string, tags []string) string {
	name := id
	if len(tags) > 0 {
		if prefix := methodPrefixByTag[tags[0]]; prefix != "" {
			if rest, ok := strings.CutPrefix(id, prefix); ok && rest != "" {
				if r, _ := utf8.DecodeRuneInString(rest); unicode.IsUpper(r) {
					name = rest
				}
			}
		}
	}
	if name == "" {
		return ""
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

package forgejo

import "strings"

// Ptr returns a pointer to v, for the optional fields of edit bodies, where
// nil means "leave as it is" and a pointer to the zero value means "set to
// zero":
//
//	client.Issues.Edit(ctx, owner, repo, 7, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
func Ptr[T any](v T) *T { return &v }

// deref returns *p, or the zero value for nil, so that nil options mean
// "the defaults".
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

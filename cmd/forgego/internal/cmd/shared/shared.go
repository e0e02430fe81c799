// Package shared holds what several command groups look up or show the
// same way: label and milestone names, users.
package shared

import (
	"context"
	"fmt"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// LabelNames lists the labels' names.
func LabelNames(labels []*forgejo.Label) []string {
	names := []string{}
	for _, l := range labels {
		if l != nil {
			names = append(names, l.Name)
		}
	}
	return names
}

// UserLogin is u's login, or "".
func UserLogin(u *forgejo.User) string {
	if u == nil {
		return ""
	}
	return u.Login
}

// LabelIDs resolves label names to the repository's label IDs (one walk of
// its labels); an unknown name is an error that lists the labels there are.
func LabelIDs(ctx context.Context, f *cmdutil.Factory, c *forgejo.Client, r cmdutil.Repo, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	got, err := cmdutil.Collect(ctx, f, "labels", cmdutil.All, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Label, *forgejo.Response, error) {
		return c.Issues.ListLabels(ctx, r.Owner, r.Name, &forgejo.IssueListLabelsOptions{ListOptions: lo})
	})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(names))
	for _, want := range names {
		var id int64
		for _, l := range got.Items {
			if l.Name == want {
				id = l.ID
				break
			}
		}
		if id == 0 {
			for _, l := range got.Items {
				if strings.EqualFold(l.Name, want) {
					id = l.ID
					break
				}
			}
		}
		if id == 0 {
			there := LabelNames(got.Items)
			if len(there) == 0 {
				return nil, fmt.Errorf("%s has no labels (looking for %q)", r.FullName(), want)
			}
			return nil, fmt.Errorf("%s has no label %q; it has: %s", r.FullName(), want, strings.Join(there, ", "))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// MilestoneID resolves a milestone's title (open or closed).
func MilestoneID(ctx context.Context, f *cmdutil.Factory, c *forgejo.Client, r cmdutil.Repo, title string) (int64, error) {
	got, err := cmdutil.Collect(ctx, f, "milestones", cmdutil.All, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Milestone, *forgejo.Response, error) {
		return c.Issues.ListMilestones(ctx, r.Owner, r.Name, &forgejo.IssueListMilestonesOptions{ListOptions: lo, State: forgejo.StateAll})
	})
	if err != nil {
		return 0, err
	}
	var titles []string
	for _, m := range got.Items {
		if m.Title == title {
			return m.ID, nil
		}
		titles = append(titles, m.Title)
	}
	if len(titles) == 0 {
		return 0, fmt.Errorf("%s has no milestones (looking for %q)", r.FullName(), title)
	}
	return 0, fmt.Errorf("%s has no milestone %q; it has: %s", r.FullName(), title, strings.Join(titles, ", "))
}

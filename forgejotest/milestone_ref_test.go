package forgejotest

import (
	"context"
	"strconv"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// TestMilestoneByIDOrName: the milestone methods take the milestone's ID or
// its title, as Forgejo does, and the fake answers both.
func TestMilestoneByIDOrName(t *testing.T) {
	ctx := context.Background()
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "app")
	c := srv.Client()
	m, _, err := c.Issues.CreateMilestone(ctx, me, "app", forgejo.CreateMilestoneRequest{Title: "v1.0"})
	if err != nil {
		t.Fatal(err)
	}
	byID, _, err := c.Issues.GetMilestone(ctx, me, "app", strconv.FormatInt(m.ID, 10))
	if err != nil || byID.ID != m.ID {
		t.Fatalf("by ID: %+v, %v", byID, err)
	}
	edited, _, err := c.Issues.EditMilestone(ctx, me, "app", "v1.0", forgejo.EditMilestoneRequest{Description: forgejo.Ptr("first")})
	if err != nil || edited.ID != m.ID || edited.Description != "first" {
		t.Fatalf("edit by title: %+v, %v", edited, err)
	}
	if _, err := c.Issues.DeleteMilestone(ctx, me, "app", "v1.0"); err != nil {
		t.Fatalf("delete by title: %v", err)
	}
	if _, _, err := c.Issues.GetMilestone(ctx, me, "app", strconv.FormatInt(m.ID, 10)); err == nil {
		t.Fatal("the milestone deleted by title is still there")
	}
}

package main

import (
	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// The --json fields of the commands still in package main, written out:
// the CLI's scripting contract (see cmdutil.Field). They move with their
// command group into its package.

var repoFields = cmdutil.Fields(&forgejo.Repository{},
	"allow_fast_forward_only_merge", "allow_merge_commits", "allow_rebase",
	"allow_rebase_explicit", "allow_rebase_update", "allow_squash_merge", "archived",
	"archived_at", "avatar_url", "clone_url", "created_at", "default_allow_maintainer_edit",
	"default_branch", "default_delete_branch_after_merge", "default_merge_style",
	"default_update_style", "description", "empty", "external_tracker", "external_wiki",
	"fork", "forks_count", "full_name", "globally_editable_wiki", "has_actions", "has_issues",
	"has_packages", "has_projects", "has_pull_requests", "has_releases", "has_wiki",
	"has_wiki_contents", "html_url", "id", "ignore_whitespace_conflicts", "internal",
	"internal_tracker", "language", "languages_url", "link", "mirror", "mirror_interval",
	"mirror_updated", "name", "object_format_name", "open_issues_count", "open_pr_counter",
	"original_url", "owner", "parent", "permissions", "private", "release_counter",
	"repo_transfer", "size", "ssh_url", "stars_count", "template", "topics", "updated_at",
	"url", "watchers_count", "website", "wiki_branch", "wiki_clone_url", "wiki_ssh_url",
)

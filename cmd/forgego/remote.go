package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// gitRemote is a repository named by a git remote's URL.
type gitRemote struct {
	name        string // origin
	ssh         bool   // ssh, scp-style or git: the instance's port is not the remote's
	host        string // lower-case host name, no port
	base        string // the instance's URL guessed from it: https://host[/prefix] (http kept)
	owner, repo string
	// fetchURL is the URL git fetches from, as 'git remote -v' shows it:
	// its user info may hold a token, so it is never printed.
	fetchURL string
}

// namePart is what an owner or a repository name may be made of.
var namePart = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// hostName is a DNS name, an IPv4 address or an IPv6 one (without brackets).
var hostName = regexp.MustCompile(`^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|[0-9a-f:.]*:[0-9a-f:.]*)$`)

// errNotRepoURL never repeats the URL: an https remote may carry a token
// in its user info.
var errNotRepoURL = errors.New("not the URL of a repository on an instance")

// parseRemote reads OWNER/REPO and the host from a git remote URL:
//
//	https://[user[:token]@]host[:port][/prefix]/OWNER/REPO[.git][/]
//	ssh://[user@]host[:port][/prefix]/OWNER/REPO[.git]
//	[user@]host:OWNER/REPO[.git]       (scp-style)
//	git://host/OWNER/REPO[.git]
//
// Local paths and file:// URLs name no instance. The user info is dropped
// and never part of an error.
func parseRemote(raw string) (gitRemote, error) {
	if raw == "" || strings.ContainsAny(raw, " \t\r\n\x00\x7f") {
		return gitRemote{}, errNotRepoURL
	}
	var scheme, host, hostport, path string
	if i := strings.Index(raw, "://"); i >= 0 {
		u, err := url.Parse(raw)
		if err != nil {
			return gitRemote{}, errNotRepoURL
		}
		scheme = strings.ToLower(u.Scheme)
		switch scheme {
		case "https", "http", "ssh", "git", "git+ssh", "ssh+git":
		default:
			return gitRemote{}, errNotRepoURL
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return gitRemote{}, errNotRepoURL
		}
		host, hostport, path = u.Hostname(), u.Host, u.EscapedPath()
	} else {
		// scp-style: [user@]host:path, with no slash before the colon.
		colon := strings.Index(raw, ":")
		if colon <= 1 || strings.Contains(raw[:colon], "/") {
			return gitRemote{}, errNotRepoURL // a local path, or a drive letter
		}
		h := raw[:colon]
		if at := strings.LastIndex(h, "@"); at >= 0 {
			h = h[at+1:]
		}
		scheme, host, hostport, path = "ssh", h, h, raw[colon+1:]
	}
	host = strings.ToLower(host)
	if !hostName.MatchString(host) {
		return gitRemote{}, errNotRepoURL
	}
	path = strings.Trim(path, "/")
	path = strings.TrimSuffix(path, ".git")
	segs := strings.Split(path, "/")
	if len(segs) < 2 {
		return gitRemote{}, errNotRepoURL
	}
	owner, repo := segs[len(segs)-2], segs[len(segs)-1]
	for _, s := range []string{owner, repo} {
		if !namePart.MatchString(s) || s == "." || s == ".." {
			return gitRemote{}, errNotRepoURL
		}
	}
	prefix := strings.Join(segs[:len(segs)-2], "/")
	for _, s := range segs[:len(segs)-2] {
		if !namePart.MatchString(s) || s == "." || s == ".." {
			return gitRemote{}, errNotRepoURL
		}
	}
	base := "https://" + host
	if scheme == "https" || scheme == "http" {
		base = scheme + "://" + strings.ToLower(hostport)
	}
	if prefix != "" {
		base += "/" + prefix
	}
	return gitRemote{host: host, base: base, owner: owner, repo: repo, ssh: scheme != "https" && scheme != "http"}, nil
}

// gitRemotes lists the fetch remotes of the repository in a.dir, in the
// order git lists them, with what each URL names; a remote whose URL names
// no repository is left out.
func (a *app) gitRemotes() ([]gitRemote, error) {
	ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "remote", "-v")
	cmd.Dir = a.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, errors.New("not in a git repository")
		}
		return nil, fmt.Errorf("running git: %w", err)
	}
	var rs []gitRemote
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "\t")
		if !ok || !strings.HasSuffix(rest, " (fetch)") || seen[name] {
			continue
		}
		seen[name] = true
		raw := strings.TrimSuffix(rest, " (fetch)")
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			// Never printed, even by accident: the password, and a user
			// name long enough to be a token (https://TOKEN@host/...), not
			// a login such as alice, which the output is full of.
			if p, ok := u.User.Password(); ok {
				a.mask.Add(p)
			} else if n := u.User.Username(); len(n) >= 16 {
				a.mask.Add(n)
			}
		}
		r, err := parseRemote(raw)
		if err != nil {
			continue
		}
		r.name, r.fetchURL = name, raw
		rs = append(rs, r)
	}
	return rs, nil
}

// remote (the factory's Remote) picks the repository from the git remotes: origin when
// it is on a logged-in instance (or no instance is logged in to), else the
// first remote on a logged-in instance, else origin. When the remote is on
// a logged-in instance, that instance is the Repo's Host (used when
// neither --url nor FORGEJO_URL names one).
func (a *app) remote() (cmdutil.Repo, error) {
	rs, err := a.gitRemotes()
	if err != nil {
		return cmdutil.Repo{}, err
	}
	if len(rs) == 0 {
		return cmdutil.Repo{}, errors.New("no git remote names a repository")
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return cmdutil.Repo{}, err
	}
	known := func(r *gitRemote) string {
		if cfg.Hosts[r.base] != nil {
			return r.base
		}
		if !r.ssh {
			return ""
		}
		found := ""
		for _, h := range cfg.HostNames() {
			if hostOnly(h) == r.host && (found == "" || h == cfg.Default) {
				found = h
			}
		}
		return found
	}
	var origin, pick *gitRemote
	for i := range rs {
		if rs[i].name == "origin" {
			origin = &rs[i]
		}
	}
	switch {
	case origin != nil && (len(cfg.Hosts) == 0 || known(origin) != ""):
		pick = origin
	default:
		for i := range rs {
			if known(&rs[i]) != "" {
				pick = &rs[i]
				break
			}
		}
		if pick == nil {
			pick = origin
		}
	}
	if pick == nil {
		return cmdutil.Repo{}, errors.New("no remote named origin, and none on a logged-in instance")
	}
	a.verbosef("~ the repository %s/%s, from the git remote %s\n", pick.owner, pick.repo, pick.name)
	return cmdutil.Repo{Owner: pick.owner, Name: pick.repo, Host: known(pick)}, nil
}

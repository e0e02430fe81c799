package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	forgejo "codeberg.org/forgego/forgejo"
)

// How git gets the token (repo clone, pr checkout).
//
// The token is never in git's argv (ps shows it to every user), never in a
// remote URL (git saves that in .git/config and prints it), never in any
// output. It goes to git as an HTTP header in the configuration git reads
// from the environment (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n,
// GIT_CONFIG_VALUE_n, git 2.31 and later):
//
//	http.<instance origin>/.extraHeader = Authorization: Basic base64(login:token)
//
// for this one git command only: nothing is written to .git/config. A
// process's environment is readable only by its user and root. Basic with
// the token as the password is what Forgejo and Gitea take for git over
// https (the login is not checked). GIT_ASKPASS would work too but needs a
// helper program on disk that prints the token.
//
// The header's URL scope is matched once, against the URL git is given,
// and git then adds the header to every request it makes for the command.
// So a redirect is the way out: git follows one on info/refs (its default,
// http.followRedirects=initial), moves its base URL to the new location and
// sends the header there, to another host, port or scheme, with every
// object request (curl's own rule, which drops Authorization on a redirect
// to another host, never sees those requests as redirects). So git is
// told to follow no redirect at all (http.followRedirects=false), for
// every URL: a redirect fails the command. A redirect within the
// instance's origin is refused as well: it would take the token to a path
// the instance's API did not name, and nothing needs one, because the
// clone URL comes from the API (which gives a renamed repository's new URL)
// and a remote of the user's that redirects is fetched without forgego's
// header when no token is in play. The same setting also disables dumb
// http's alternates elsewhere.
//
// What git is given is checked first: a clone URL from the instance must be
// http(s) with no user info and on the instance's origin (scheme, host and
// port, compared as strings: localhost is not 127.0.0.1), else the command
// fails before git runs. Submodules are not recursed into. The protocols
// git may use are not restricted (GIT_ALLOW_PROTOCOL): the header is
// HTTP's, and a user's url.<base>.insteadOf rewriting the instance's https
// URLs to ssh is common and must keep working. The user's credential
// helpers are left alone: git asks them for the URL it was given, which is
// the instance's, and GIT_TERMINAL_PROMPT=0 keeps a refused token from
// waiting at a password prompt.

// gitFetchEnv is the environment of a git command that fetches from target,
// the URL git is given (a clone URL from the instance, or a remote's URL):
// redirects refused, no prompt, and the header with the token when there
// is one and target is on the instance's origin.
func (a *app) gitFetchEnv(target string) []string {
	var kv [][2]string
	add := func(k, v string) { kv = append(kv, [2]string{k, v}) }
	// The plain key, and the same one scoped to the instance's origin and
	// to target itself: a URL-scoped value in the user's configuration
	// (http.<url>.followRedirects=true) beats a plain one wherever it was
	// read, and no scope matching target is more specific than target.
	add("http.followRedirects", "false")
	base := ""
	if a.client != nil {
		base = a.client.BaseURL()
	}
	if o := origin(base); o != "" {
		add("http."+o+"/.followRedirects", "false")
	}
	if u, err := url.Parse(target); err == nil && u.Host != "" && (u.Scheme == "https" || u.Scheme == "http") {
		add("http."+u.Scheme+"://"+u.Host+u.EscapedPath()+".followRedirects", "false")
	}
	if a.token != "" && sameOrigin(target, base) {
		login := a.tokenUser
		if login == "" {
			login = "forgego"
		}
		cred := base64.StdEncoding.EncodeToString([]byte(login + ":" + a.token))
		a.mask.Add(cred)
		add("http."+origin(base)+"/.extraHeader", "Authorization: Basic "+cred)
	}
	n := 0
	if v, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT")); err == nil && v > 0 {
		n = v // keep the caller's own GIT_CONFIG_* entries; ours come after
	}
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(n+len(kv)), "GIT_TERMINAL_PROMPT=0"}
	for i, e := range kv {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, e[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n+i, e[1]))
	}
	return env
}

// origin is u's scheme://host[:port], or "" when u is not an http(s) URL
// with a host.
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || (p.Scheme != "https" && p.Scheme != "http") {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// sameOrigin reports whether two URLs have the same scheme, host and port,
// as written: hosts are compared in ASCII only (no Unicode case folding),
// a default port written out or a trailing dot is another origin.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || ua.Host == "" || ua.Opaque != "" || ub.Opaque != "" {
		return false
	}
	for _, h := range []string{ua.Host, ub.Host} {
		for i := 0; i < len(h); i++ {
			if h[i] >= 0x80 {
				return false
			}
		}
	}
	return ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host)
}

// checkCloneURL refuses a clone URL the instance gave for owner/name that
// git must not be given: not http(s) with a host (an option, ext::, a local
// path), with user info, or on another origin than the instance's.
func (a *app) checkCloneURL(c *forgejo.Client, owner, name, cloneURL string) error {
	if !isHTTPURL(cloneURL) {
		return fmt.Errorf("the instance gave no https clone URL for %s/%s", owner, name)
	}
	if !sameOrigin(cloneURL, c.BaseURL()) {
		return fmt.Errorf("the instance gave a clone URL for %s/%s on another origin (%q, not %q): refused", owner, name, origin(cloneURL), origin(c.BaseURL()))
	}
	return nil
}

// git runs git in dir with the extra environment, its output on the
// (masked) streams.
func (a *app) git(dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(a.ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = a.stderr // git's chatter; stdout stays for what forgego says
	cmd.Stderr = a.stderr
	a.verbosef("~ git %s\n", strings.Join(args, " "))
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("git %s failed (exit status %d; git said why above)", args[0], ee.ExitCode())
		}
		return fmt.Errorf("running git: %w", err)
	}
	return nil
}

// gitFetch runs a git command that talks to a server (clone, fetch) in
// dir with the extra environment. Its output is held: passed on (masked)
// when it succeeds, and when it fails the error is one line, git's first
// complaint, instead of git's lines and ours.
func (a *app) gitFetch(dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(a.ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out := &headBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	a.verbosef("~ git %s\n", strings.Join(args, " "))
	err := cmd.Run()
	if err == nil {
		_, _ = a.stderr.Write(out.b.Bytes())
		return nil
	}
	if a.ctx.Err() != nil {
		return a.ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		why := gitComplaint(out.b.String())
		if redirected.MatchString(why) {
			why += " (a redirect, which forgego has git refuse: see 'forgego repo clone --help')"
		}
		return fmt.Errorf("git %s failed (exit status %d): %s", args[0], ee.ExitCode(), why)
	}
	return fmt.Errorf("running git: %w", err)
}

// redirected is how git says that it met a redirect it did not follow.
var redirected = regexp.MustCompile(`returned error: 30[0-8]\b`)

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	b   bytes.Buffer
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.b.Len(); room > 0 {
		h.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// gitComplaint is the line of git's output that says why it failed: the
// first error: or fatal: line (an "RPC failed; HTTP 302" comes before the
// fatal line that follows from it), else the last line; without the
// prefix, control characters escaped, at most 300 bytes.
func gitComplaint(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	why := strings.TrimSpace(lines[len(lines)-1])
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "fatal: "); ok {
			why = rest
			break
		}
		if rest, ok := strings.CutPrefix(l, "error: "); ok {
			why = rest
			break
		}
	}
	var b strings.Builder
	for _, r := range strings.TrimSpace(why) {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	why = b.String()
	if len(why) > 300 {
		why = strings.ToValidUTF8(why[:300], "") + "..."
	}
	if why == "" {
		return "git said nothing"
	}
	return why
}

// gitOutput runs git in dir and returns its trimmed standard output; the
// error holds git's first line of complaint.
func (a *app) gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(a.ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
			return "", errors.New(first)
		}
		return "", fmt.Errorf("running git: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// inGitRepo checks that dir is inside a git work tree.
func (a *app) inGitRepo(dir string) error {
	if _, err := exec.LookPath("git"); err != nil {
		return errors.New("git is not installed (or not on PATH)")
	}
	out, err := a.gitOutput(dir, "rev-parse", "--is-inside-work-tree")
	if err != nil || out != "true" {
		return errors.New("not in a git repository: run it inside a clone (forgego repo clone OWNER/REPO)")
	}
	return nil
}

// isHTTPURL reports whether s is an http or https URL with a host: what a
// clone URL from the instance must be before git is given it (not an
// option, not ext:: or a local path).
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

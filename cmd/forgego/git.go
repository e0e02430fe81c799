package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// How git gets the token (repo clone, pr checkout).
//
// The token is never in git's argv (ps shows it to every user), never in a
// remote URL (git saves that in .git/config and prints it), never in any
// output. It goes to git as an HTTP header in the configuration git reads
// from the environment (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n,
// GIT_CONFIG_VALUE_n, git 2.31 and later):
//
//	http.<instance URL>/.extraHeader = Authorization: Basic base64(login:token)
//
// scoped to the instance's URL, so that git sends it to the instance only
// (not to a submodule or a redirect elsewhere), and for this one git
// command only: nothing is written to .git/config. A process's environment
// is readable only by its user and root. Basic with the token as the
// password is what Forgejo and Gitea take for git over https (the login is
// not checked). GIT_ASKPASS would work too but needs a helper program on
// disk that prints the token.

// gitAuthEnv is the environment that makes git send the token to the
// instance at target's origin: nothing when there is no token or target is
// elsewhere.
func (a *app) gitAuthEnv(target string) []string {
	if a.token == "" || a.client == nil || !sameOrigin(target, a.client.BaseURL()) {
		return nil
	}
	u, err := url.Parse(a.client.BaseURL())
	if err != nil {
		return nil
	}
	login := a.tokenUser
	if login == "" {
		login = "forgego"
	}
	cred := base64.StdEncoding.EncodeToString([]byte(login + ":" + a.token))
	a.mask.Add(cred)
	n := 0
	if v, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT")); err == nil && v > 0 {
		n = v // keep the caller's own GIT_CONFIG_* entries
	}
	scope := u.Scheme + "://" + u.Host + "/"
	return []string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(n+1),
		fmt.Sprintf("GIT_CONFIG_KEY_%d=http.%s.extraHeader", n, scope),
		fmt.Sprintf("GIT_CONFIG_VALUE_%d=Authorization: Basic %s", n, cred),
		// A refused token fails instead of waiting at a password prompt.
		"GIT_TERMINAL_PROMPT=0",
	}
}

// sameOrigin reports whether two URLs have the same scheme, host and port.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || ua.Host == "" {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host)
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

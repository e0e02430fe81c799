package forgejotest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// This file makes the fake answer as a given Forgejo release does
// ([WithRelease]): only the routes that release serves reach a handler, and
// /version reports it. Which release serves which operation is the client
// library's own knowledge (forgejo.Operations(): Since, Until, Earlier).

// releases are the Forgejo release lines the library's version knowledge
// covers, oldest first, with the version string each one's measured build
// reports on /version (the builds whose specs internal/api/versions holds;
// TestReleasesMatchLibrary checks both against the library).
var releases = []struct{ line, served string }{
	{"11.0", "11.0.15+gitea-1.22.0"},
	{"13.0", "13.0.5+gitea-1.22.0"},
	{"14.0", "14.0.5+gitea-1.22.0"},
	{"15.0", "15.0.3+gitea-1.22.0"},
	{"16.0", "16.0.0-dev-539-4695780d41+gitea-1.22.0"},
}

// Releases lists the Forgejo release lines [WithRelease] accepts, oldest
// first, such as "15.0".
func Releases() []string {
	out := make([]string, len(releases))
	for i, r := range releases {
		out[i] = r.line
	}
	return out
}

// WithRelease makes the server answer as Forgejo release version does:
// "15.0.3", a release line "15.0", or a major version "15", one of
// [Releases] (Forgejo 11 LTS, 15 LTS and the current release among them).
// A route of an operation that release does not serve answers as its router
// does, before any credential is checked and even when [Server.Handle]
// answers that operation: 404 text/plain "404 page not
// found", or 405 with an empty body and Allow when the release serves the
// path for another method (DeleteActionRun on 15.0, whose path it serves
// for GET). An operation whose path moved is served at the path that
// release had (adminGetRunnerRegistrationToken at
// /admin/runners/registration-token before 15.0). /version reports the
// release: version itself with "+gitea-1.22.0" when it names a patch
// ("15.0.7+gitea-1.22.0"), else the build the library's knowledge was
// measured on ("15.0.3+gitea-1.22.0"); a later [WithVersion] overrides it.
// Which release serves what is the library's knowledge
// ([forgejo.Operation] Since, Until and Earlier).
//
// A version that is no such release fails [NewServer]'s test, or is
// [Start]'s error. Without this option the server serves every operation of
// the pinned spec (the newest development build).
func WithRelease(version string) Option {
	return func(c *config) {
		line, served, err := parseRelease(version)
		if err != nil {
			c.err = err
			return
		}
		c.release, c.version = line, served
	}
}

// parseRelease reads WithRelease's argument: the release line and what
// /version reports.
func parseRelease(v string) (line, served string, err error) {
	parts := strings.Split(v, ".")
	ok := len(parts) >= 1 && len(parts) <= 3
	for _, p := range parts {
		if _, e := strconv.Atoi(p); e != nil || p == "" || p[0] == '+' || p[0] == '-' {
			ok = false
		}
	}
	if ok {
		if len(parts) == 1 {
			parts = append(parts, "0")
		}
		line = parts[0] + "." + parts[1]
		for _, r := range releases {
			if r.line == line {
				served = r.served
				if len(parts) == 3 {
					served = v + "+gitea-1.22.0"
				}
				return line, served, nil
			}
		}
	}
	return "", "", fmt.Errorf("WithRelease(%q): not a known Forgejo release; known: %s (or MAJOR, or MAJOR.MINOR.PATCH)", v, strings.Join(Releases(), ", "))
}

// releaseOps are the operations release line serves, each at the method and
// path that release serves it at, with its path parameters renamed to the
// pinned template's names.
func releaseOps(line string) []knownOp {
	var out []knownOp
	for _, op := range forgejo.Operations() {
		if op.Since != "" && !inRelease(line, op.Since, op.Until) {
			continue
		}
		k := knownOp{id: op.ID, method: op.Method, tmpl: compileTemplate(op.Path)}
		for _, f := range op.Earlier {
			if !inRelease(line, f.Since, f.Until) || (f.Method == op.Method && f.Path == op.Path) {
				continue
			}
			k.method, k.tmpl, k.moved = f.Method, compileTemplate(f.Path), true
			from, to := pathVars(f.Path), pathVars(op.Path)
			if len(from) == len(to) && !slices.Equal(from, to) {
				k.rename = map[string]string{}
				for i := range from {
					k.rename[from[i]] = to[i]
				}
			}
			break
		}
		out = append(out, k)
	}
	return out
}

// inRelease reports since <= line <= until, release lines "MAJOR.MINOR";
// an empty until is open.
func inRelease(line, since, until string) bool {
	return compareLines(since, line) <= 0 && (until == "" || compareLines(line, until) <= 0)
}

func compareLines(a, b string) int {
	num := func(s string) (int, int) {
		x, y, _ := strings.Cut(s, ".")
		ma, _ := strconv.Atoi(x)
		mi, _ := strconv.Atoi(y)
		return ma, mi
	}
	a1, a2 := num(a)
	b1, b2 := num(b)
	if a1 != b1 {
		return a1 - b1
	}
	return a2 - b2
}

// pathVars lists a template's variables in order.
func pathVars(t string) []string {
	var out []string
	for _, m := range paramRE.FindAllString(t, -1) {
		out = append(out, m[1:len(m)-1])
	}
	return out
}

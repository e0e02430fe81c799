// Command forgego is a command-line client for Forgejo (Codeberg by default)
// built on the forgejo library, in the manner of gh and tea:
//
//	forgego issue list OWNER/REPO [--state S] [--limit N | --all]
//	forgego pr view 12 -R OWNER/REPO
//	forgego api --paginate /repos/OWNER/REPO/labels
//	forgego webhook listen --secret S --forward http://localhost:8080/hook
//	forgego fake serve --addr 127.0.0.1:3000   # a fake Forgejo for any program's tests
//
// Every command has --help with its flags, their defaults and examples.
// FORGEJO_URL names the instance (default https://codeberg.org) and
// FORGEJO_TOKEN the access token. --embedded runs the command against an
// in-process demo server instead: no network, no token.
//
// Exit status: 0 success, 1 failure, 2 a mistake on the command line, 4
// authentication missing or refused (401, 403, no stored token), 130
// interrupted (Ctrl-C).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// SIGTERM too: a service manager's stop lets webhook work drain and
	// webhook listen finish the deliveries it is answering.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

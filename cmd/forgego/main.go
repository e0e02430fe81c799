// Command forgego is a small command-line client for Forgejo (Codeberg by
// default), built on the forgejo library:
//
//	forgego version
//	forgego repo view OWNER/REPO
//	forgego issue list OWNER/REPO [--state S] [--limit N | --all]
//	forgego issue create OWNER/REPO --title T [--body B]
//	forgego api [--paginate] [-X METHOD] PATH [-f key=value]...
//	forgego ratelimit
//
// FORGEJO_URL names the instance (default https://codeberg.org) and
// FORGEJO_TOKEN the access token. --embedded runs the command against an
// in-process demo server instead: no network, no token.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

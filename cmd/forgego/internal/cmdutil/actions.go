package cmdutil

import (
	"errors"
	"fmt"

	forgejo "codeberg.org/forgego/forgejo"
)

// ErrSilent is a failure already told on the output (run view
// --exit-status on a failed run): exit 1, and nothing more is printed.
var ErrSilent = errors.New("the command failed (already said)")

// describeUnsupported says in one line that the server's release lacks an
// operation, and which release serves it.
func describeUnsupported(ue *forgejo.UnsupportedOperationError) string {
	what := ue.Method
	if what == "" {
		what = ue.Operation
	}
	served := "Forgejo " + ue.Since + " or later"
	if ue.Until != "" {
		served = "Forgejo " + ue.Since + " to " + ue.Until
	}
	server := "the server"
	// The version is known when the client asked for it (WithVersionCheck);
	// a 404 from the router tells only that the route is missing.
	if ue.ServerVersion != "" {
		server += " runs " + ue.ServerVersion + ", which"
	}
	return OneLine(fmt.Sprintf("%s does not serve %s: it needs %s", server, what, served))
}

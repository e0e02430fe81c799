package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitFailure   = 1
	ExitUsage     = 2
	ExitAuth      = 4   // authentication missing or refused (401, 403, no stored token)
	ExitInterrupt = 130 // 128 + SIGINT, as shells report it
)

// UsageError is a mistake on the command line: exit 2, a short usage and a
// hint.
type UsageError struct {
	Msg  string
	Hint string // replaces the default "Run '... --help'" line when set
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// RunError marks a failure of a command that ran, as opposed to one cobra
// or the command's checks rejected before anything was sent.
type RunError struct{ Err error }

func (e *RunError) Error() string { return e.Err.Error() }
func (e *RunError) Unwrap() error { return e.Err }

// AuthMissingError is a command that needs a stored token and finds none.
type AuthMissingError struct{ Msg string }

func (e *AuthMissingError) Error() string { return e.Msg }

// PrefixedError puts a few words before a failure's description and keeps
// the failure in the chain (for the exit status).
type PrefixedError struct {
	Prefix string
	Err    error
}

func (e *PrefixedError) Error() string { return e.Prefix + e.Err.Error() }
func (e *PrefixedError) Unwrap() error { return e.Err }

// RunE adapts a command body: usage errors stay usage errors, anything
// else is a failure of the command.
func RunE(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd, args)
		var ue *UsageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return &RunError{err}
	}
}

// ExitCode maps the outcome of a command to the exit status: 130 when the
// command ended because the user interrupted it (the context was canceled
// by the signal, and the failure is that cancellation), 4 for missing or
// refused credentials, 2 for a mistake on the command line, 1 for any other
// failure.
func ExitCode(ctx context.Context, err error) int {
	var ue *UsageError
	var re *RunError
	switch {
	case err == nil:
		return ExitOK
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err())):
		return ExitInterrupt
	case IsAuthFailure(err):
		return ExitAuth
	case errors.As(err, &re):
		return ExitFailure
	case errors.As(err, &ue):
		return ExitUsage
	default:
		// Whatever cobra itself rejects (an unknown flag or command, a
		// malformed flag value) is a usage error.
		return ExitUsage
	}
}

// IsAuthFailure reports whether err is the instance refusing the
// credentials (401, 403), a token source failing, or no token at hand.
func IsAuthFailure(err error) bool {
	var ae *forgejo.APIError
	var te *forgejo.AuthError
	var me *AuthMissingError
	switch {
	case errors.As(err, &me), errors.As(err, &te):
		return true
	case errors.As(err, &ae):
		return ae.StatusCode == 401 || ae.StatusCode == 403
	}
	return false
}

// PrintUsageError prints a usage error in three lines: what was wrong, the
// command's usage line, and where to read more.
func PrintUsageError(w io.Writer, cmd *cobra.Command, err error) {
	msg := err.Error()
	hint := ""
	var ue *UsageError
	if errors.As(err, &ue) {
		hint = ue.Hint
	}
	if first, _, ok := strings.Cut(msg, "\n"); ok {
		msg = first // cobra appends suggestions on more lines; we give our own
	}
	fmt.Fprintf(w, "forgego: %s\n", OneLine(msg))
	if cmd == nil {
		return
	}
	fmt.Fprintf(w, "Usage: %s\n", cmd.UseLine())
	if hint == "" {
		hint = fmt.Sprintf("Run '%s --help' for the flags and examples.", cmd.CommandPath())
	}
	fmt.Fprintln(w, hint)
}

// FlagError turns pflag's messages into shorter ones.
func FlagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if e := jsonFieldsError(cmd, msg); e != nil {
		return e
	}
	if i := strings.Index(msg, ": strconv."); i >= 0 {
		msg = msg[:i] + ": not a number"
	}
	return &UsageError{Msg: msg}
}

// GroupRun is the body of a command that only holds subcommands ("issue",
// and the root): without a subcommand, or with an unknown one, it is a
// usage error that lists what there is.
func GroupRun(cmd *cobra.Command, args []string) error {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	if len(args) == 0 {
		if !cmd.HasParent() {
			return &UsageError{Msg: "no command given", Hint: "Run 'forgego --help' for the commands, or try: forgego --embedded issue list forgego/demo -v"}
		}
		return &UsageError{Msg: fmt.Sprintf("%s needs a command: %s", cmd.CommandPath(), strings.Join(names, ", "))}
	}
	ue := &UsageError{Msg: fmt.Sprintf("unknown command %q for %s", args[0], cmd.CommandPath())}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		ue.Hint = fmt.Sprintf("Did you mean '%s %s'? Run '%s --help' for the commands.", cmd.CommandPath(), s[0], cmd.CommandPath())
	} else {
		ue.Hint = fmt.Sprintf("Commands: %s. Run '%s --help' for more.", strings.Join(names, ", "), cmd.CommandPath())
	}
	return ue
}

// GroupCmd is a command that only holds subcommands.
func GroupCmd(use, short string) *cobra.Command {
	return &cobra.Command{
		Use:                   use + " <command>",
		Short:                 short,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  GroupRun,
		DisableFlagsInUseLine: true,
	}
}

// OneLine joins s's words with single spaces.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Describe renders a failure as one line that names the call once:
//
//	GET https://codeberg.org/api/v1/repos/a/b: 404 Not Found: The target couldn't be found.
//	GET http://127.0.0.1:1/api/v1/version: connection failed: dial tcp 127.0.0.1:1: connect: connection refused (gave up after 3 attempts)
//
// The library's own messages carry the operation, the attempt and its
// duration, and repeat the URL inside the transport's cause: right for
// logs, too much for a terminal.
func Describe(err error) string {
	var pe *PrefixedError
	if errors.As(err, &pe) {
		return pe.Prefix + Describe(pe.Err)
	}
	suffix := ""
	var re *forgejo.RetriesExhaustedError
	if errors.As(err, &re) && re.Last != nil {
		suffix = fmt.Sprintf(" (gave up after %d attempts)", re.Attempts)
		err = re.Last
	}
	var (
		se *forgejo.ScopeError
		ae *forgejo.APIError
		te *forgejo.TransportError
		de *forgejo.DecodeError
		uo *forgejo.UnsupportedOperationError
	)
	switch {
	case errors.As(err, &uo):
		return describeUnsupported(uo) + suffix
	case errors.As(err, &se) && se.API != nil && len(se.Required) > 0:
		// The server's wording ("at least one of required scope(s)")
		// misleads: every scope it lists is required. Say which to add.
		return OneLine(fmt.Sprintf("%s: %d %s: %s", CallName(se.API.Call), se.API.StatusCode,
			http.StatusText(se.API.StatusCode), ScopeHint(se.Required)) + suffix)
	case errors.As(err, &ae):
		var b strings.Builder
		b.WriteString(CallName(ae.Call))
		fmt.Fprintf(&b, ": %d %s", ae.StatusCode, http.StatusText(ae.StatusCode))
		if ae.Message != "" && !strings.EqualFold(ae.Message, http.StatusText(ae.StatusCode)) {
			b.WriteString(": " + ae.Message)
		}
		if len(ae.Errors) > 0 {
			b.WriteString(" (" + strings.Join(ae.Errors, "; ") + ")")
		}
		if d, ok := ae.RetryAfter(); ok {
			fmt.Fprintf(&b, "; retry after %s", d.Round(time.Second))
		}
		if ae.Location != "" {
			b.WriteString("; moved to " + ae.Location)
		}
		return OneLine(b.String() + suffix + hintFor(ae.StatusCode))
	case errors.As(err, &te):
		msg := CallName(te.Call) + ": " + te.Kind.String()
		if cause := transportCause(te); cause != "" && cause != te.Kind.String() {
			msg += ": " + cause
		}
		return OneLine(msg + suffix)
	case errors.As(err, &de):
		return OneLine(fmt.Sprintf("%s: the answer does not fit the model at %s: %v", CallName(de.Call), de.Path, de.Err) + suffix)
	}
	return OneLine(err.Error() + suffix)
}

// CallName is "METHOD URL" (and the request ID, when the instance sent
// one): the call, named once.
func CallName(c forgejo.CallContext) string {
	s := c.Method + " " + c.URL
	if c.RequestID != "" {
		s += " [request-id " + c.RequestID + "]"
	}
	return s
}

// transportCause is the cause of a transport failure without the URL the
// net/http error repeats ("Get \"URL\": dial tcp ...").
func transportCause(te *forgejo.TransportError) string {
	if te.Err == nil {
		return ""
	}
	var ue *url.Error
	if errors.As(te.Err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	s := te.Err.Error()
	if te.Call.URL != "" {
		if i := strings.Index(s, te.Call.URL+"\": "); i >= 0 {
			s = s[i+len(te.Call.URL)+3:]
		}
	}
	return s
}

// hintFor adds what to check after the answers people meet first.
func hintFor(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return " (log in with 'forgego auth login --with-token', or set FORGEJO_TOKEN)"
	}
	return ""
}

// ScopeHint is what to do about a token scope refusal that named scopes:
//
//	the token lacks the read:user scope: use a token that has it (the instance's settings, Applications)
//
// A token's scopes cannot be changed once it is made, so the advice is a
// new token, not an edit.
func ScopeHint(required []forgejo.TokenScope) string {
	if len(required) == 1 {
		return "the token lacks the " + string(required[0]) + " scope: use a token that has it (create one in the instance's settings, Applications)"
	}
	return "the token needs the scopes " + ScopeList(required) + " together: use a token that has them all (create one in the instance's settings, Applications)"
}

// ScopeList is "read:user", or "read:user and read:organization".
func ScopeList(scopes []forgejo.TokenScope) string {
	names := make([]string, len(scopes))
	for i, s := range scopes {
		names[i] = string(s)
	}
	return strings.Join(names, " and ")
}

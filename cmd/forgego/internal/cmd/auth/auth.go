// Package auth is 'forgego auth': login, status, token and logout.
package auth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/config"
	"github.com/spf13/cobra"
)

// Precedence says which instance and token a command uses.
const Precedence = `Which instance and token a command uses, first match wins:

  instance  --url, FORGEJO_URL, the logged-in instance the repository's git
            remote is on, the default (the last 'auth login'), https://codeberg.org
  token     FORGEJO_TOKEN, the token stored for that instance

The tokens are stored in $XDG_CONFIG_HOME/forgego/hosts.json (else
~/.config/forgego/hosts.json), mode 0600; a file others can read is refused.
No command prints a token but 'auth token'.`

// NewCmdAuth is the 'auth' group.
func NewCmdAuth(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("auth", "Log in to an instance, and out")
	cmd.Long = "Store an access token per instance.\n\n" + Precedence
	cmd.AddCommand(NewCmdLogin(f, nil), NewCmdStatus(f, nil), NewCmdToken(f, nil), NewCmdLogout(f, nil))
	return cmd
}

// authCmds are the auth commands, on the factory.
type authCmds struct{ f *cmdutil.Factory }

// authHost is --hostname, else the instance the command would use.
func (a *authCmds) authHost(hostname string) (string, error) {
	if a.f.Embedded() {
		return "", cmdutil.Usagef("the auth commands do not work with --embedded: the demo needs no token")
	}
	h := hostname
	if h == "" {
		base, err := a.f.Instance()
		if err != nil {
			return "", err
		}
		h = base
	}
	key, err := config.NormalizeHost(h)
	if err != nil {
		if hostname != "" {
			return "", cmdutil.Usagef("--hostname: %v", err)
		}
		return "", fmt.Errorf("the instance: %w", err)
	}
	return key, nil
}

// whoami asks the instance who the token belongs to (GET /user).
func (a *authCmds) whoami(ctx context.Context, host, token string) (*forgejo.User, error) {
	c, err := a.f.NewClient(host, token)
	if err != nil {
		return nil, err
	}
	u, _, err := c.Users.GetCurrent(ctx)
	return u, err
}

// LoginOptions are 'auth login' parsed: the instance, the token read
// from standard input, and --user.
type LoginOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Host  string
	Token string
	User  string // --user: the account to record when the token cannot read it
}

// NewCmdLogin is 'auth login'; runF, when not nil, runs instead of the
// check and the store.
func NewCmdLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	a := &authCmds{f: f}
	var hostname, user string
	var withToken bool
	cmd := &cobra.Command{
		Use:   "login --with-token [--hostname URL] [--user NAME] < token.txt",
		Short: "Store an access token for an instance",
		Long: `Read an access token from standard input (--with-token), check it, store it
for the instance and make that instance the default. Create the token in the
instance's settings (Applications); give it the scopes the commands you use
need.

The check is GET /user, which also says whose the token is. A token without
the read:user scope (a token restricted to some repositories can never have
it) is refused there with a scope refusal, which the instance only gives a
token it knows: such a token is stored too, and the login says that whose it
is could not be checked. --user records the account name for it (git uses it
as the user name; it is checked against GET /user when the token can read it).
A token the instance does not know (401) is not stored.

` + Precedence,
		Example: `  forgego auth login --hostname codeberg.org --with-token < token.txt
  echo "$TOKEN" | forgego auth login --hostname https://git.example.org --with-token
  forgego auth login --hostname codeberg.org --user alice --with-token < repo-token.txt`,
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if !withToken {
				return cmdutil.Usagef("auth login needs --with-token and the token on standard input (there is no interactive login)")
			}
			if user != "" && !validLogin(user) {
				return cmdutil.Usagef("--user: %q is not an account name", user)
			}
			host, err := a.authHost(hostname)
			if err != nil {
				return err
			}
			token, err := readToken(a.f.IOStreams.In)
			if err != nil {
				return err
			}
			a.f.IOStreams.Mask.Add(token)
			if runF != nil {
				return runF(&LoginOptions{F: f, Ctx: cmd.Context(), Host: host, Token: token, User: user})
			}
			cfg, err := a.f.Config()
			if err != nil {
				return err
			}
			login, checked := user, ""
			u, err := a.whoami(cmd.Context(), host, token)
			var se *forgejo.ScopeError
			switch {
			case err == nil:
				if user != "" && !strings.EqualFold(user, u.Login) {
					return fmt.Errorf("the token was not stored: it is %s's, not %s's (--user)", u.Login, user)
				}
				login = u.Login
			case errors.As(err, &se):
				// An unknown token is refused with 401 before any scope
				// check (Forgejo and Gitea alike): a scope refusal means
				// the instance knows the token.
				if user != "" {
					checked = fmt.Sprintf("checked: the token is valid; not checked: that it is %s's (GET /user needs %s)", user, cmdutil.ScopeList(se.Required))
				} else {
					checked = fmt.Sprintf("checked: the token is valid; not checked: whose it is (GET /user needs %s; --user records it)", cmdutil.ScopeList(se.Required))
				}
			default:
				return &cmdutil.PrefixedError{Prefix: "the token was not stored: ", Err: err}
			}
			cfg.Hosts[host] = &config.Host{User: login, Token: token}
			cfg.Default = host
			if err := a.f.SaveConfig(cfg); err != nil {
				return err
			}
			as := ""
			if login != "" {
				as = " as " + login
			}
			fmt.Fprintf(a.f.IOStreams.ErrOut, "logged in to %s%s (the default instance now)\n", host, as)
			if checked != "" {
				fmt.Fprintln(a.f.IOStreams.ErrOut, checked)
			}
			if strings.HasPrefix(host, "http://") && !IsLoopback(config.HostOnly(host)) {
				fmt.Fprintf(a.f.IOStreams.ErrOut, "warning: %s is plain http: the token crosses the network unencrypted on every request\n", host)
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name (default: the instance the other commands use)")
	cmd.Flags().BoolVar(&withToken, "with-token", false, "read the token from standard input")
	cmd.Flags().StringVar(&user, "user", "", "the account `NAME` to record when the token cannot read it (no read:user scope)")
	return cmd
}

// validLogin reports whether s can be an account name: letters, digits,
// '-', '_' and '.', as Forgejo allows.
func validLogin(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// readToken reads one token from r: the first line, trimmed.
func readToken(r io.Reader) (string, error) {
	if r == nil {
		return "", cmdutil.Usagef("--with-token: no standard input")
	}
	line, err := bufio.NewReader(io.LimitReader(r, 64<<10)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the token: %w", err)
	}
	token := strings.TrimSpace(line)
	if token == "" {
		return "", cmdutil.Usagef("--with-token: standard input holds no token")
	}
	if strings.ContainsAny(token, " \t\r\x00") {
		return "", cmdutil.Usagef("--with-token: the token has spaces or control characters in it")
	}
	return token, nil
}

// StatusOptions are 'auth status' parsed.
type StatusOptions struct {
	F   *cmdutil.Factory
	Ctx context.Context
}

// NewCmdStatus is 'auth status'.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	a := &authCmds{f: f}
	return &cobra.Command{
		Use:   "status",
		Short: "Show the instances logged in to, and check their tokens",
		Long: `List every instance with a stored token, check each token with GET /user,
say what its scopes refuse, and say which instance is the default. The tokens
are not shown.

The scopes: when the token may read its own user and the instance lists the
user's tokens to it (Forgejo does, Gitea wants a password), the token's
scopes as the instance lists them. Otherwise one read is sent for each scope
category (user, repository, issue, organization, notification, package,
admin), and the line names the ones the instance refused for the token's
scope and the ones it let through; writes are never tried, so a token that
reads a category may still be refused its writes. A token that cannot read
GET /user (no read:user scope, as every token restricted to repositories) is
still a working token: its user is the one stored at login, unchecked.

The exit status is 4 when a stored token does not work (401, or any failure
but a scope refusal) or no instance is logged in to.

` + Precedence,
		Example: `  $ forgego auth status
  https://codeberg.org (default)
    logged in as alice
    token scopes: read:user, write:issue, write:repository (as listed by the instance)
  https://git.example.org
    logged in as bot (not checked: GET /user needs read:user)
    token scopes: refused read:user, read:organization, read:notification, read:package, read:admin; allowed read:repository, read:issue (one read probed per category; writes not tried)`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if a.f.Embedded() {
				return cmdutil.Usagef("the auth commands do not work with --embedded: the demo needs no token")
			}
			if runF != nil {
				return runF(&StatusOptions{F: f, Ctx: cmd.Context()})
			}
			cfg, err := a.f.Config()
			if err != nil {
				return err
			}
			out := a.f.IOStreams.Out
			if env := strings.TrimSpace(a.f.Getenv("FORGEJO_TOKEN")); env != "" {
				fmt.Fprintln(out, "FORGEJO_TOKEN is set: it is used instead of the stored tokens")
			}
			if u := a.f.URLFlag(); u != "" {
				fmt.Fprintf(out, "--url is set: the commands use %s\n", u)
			} else if u := a.f.Getenv("FORGEJO_URL"); u != "" {
				fmt.Fprintf(out, "FORGEJO_URL is set: the commands use %s\n", u)
			}
			if len(cfg.Hosts) == 0 {
				return &cmdutil.AuthMissingError{Msg: "not logged in to any instance; run 'forgego auth login --hostname URL --with-token'"}
			}
			failed := 0
			for _, h := range cfg.HostNames() {
				hc := cfg.Hosts[h]
				def := ""
				if h == cfg.Default {
					def = " (default)"
				}
				fmt.Fprintf(out, "%s%s\n", h, def)
				if !a.hostStatus(cmd.Context(), h, hc) {
					failed++
				}
			}
			if failed > 0 {
				return &cmdutil.AuthMissingError{Msg: fmt.Sprintf("%d of %d stored tokens refused", failed, len(cfg.Hosts))}
			}
			return nil
		}),
	}
}

// hostStatus prints the lines under one instance: whose the token is and
// what its scopes refuse. It reports whether the token works.
func (a *authCmds) hostStatus(ctx context.Context, host string, hc *config.Host) bool {
	out := a.f.IOStreams.Out
	c, err := a.f.NewClient(host, hc.Token)
	if err != nil {
		fmt.Fprintf(out, "  X %s\n", cmdutil.Describe(err))
		return false
	}
	u, _, err := c.Users.GetCurrent(ctx)
	var se *forgejo.ScopeError
	switch {
	case err == nil:
		fmt.Fprintf(out, "  logged in as %s\n", u.Login)
		if a.listedScopes(ctx, c, u.Login, hc.Token) {
			return true
		}
	case errors.As(err, &se):
		if hc.User != "" {
			fmt.Fprintf(out, "  logged in as %s (not checked: GET /user needs %s)\n", hc.User, cmdutil.ScopeList(se.Required))
		} else {
			fmt.Fprintf(out, "  logged in, as an account not known (GET /user needs %s)\n", cmdutil.ScopeList(se.Required))
		}
	default:
		who := ""
		if hc.User != "" {
			who = " for " + hc.User
		}
		fmt.Fprintf(out, "  X the stored token%s does not work: %s\n", who, cmdutil.Describe(err))
		return false
	}
	login := hc.User
	if err == nil {
		login = u.Login
	}
	a.probeScopes(ctx, c, login, err != nil)
	return true
}

// listedScopes prints the token's scopes as the instance lists them, when
// it lists the user's tokens to this token; false when it does not.
func (a *authCmds) listedScopes(ctx context.Context, c *forgejo.Client, login, token string) bool {
	if len(token) < 8 {
		return false
	}
	last8 := token[len(token)-8:]
	for t, err := range c.Users.ListTokensIter(ctx, login, nil) {
		if err != nil {
			return false
		}
		if t.TokenLastEight != last8 {
			continue
		}
		out := a.f.IOStreams.Out
		scopes := slices.Clone(t.Scopes)
		slices.Sort(scopes)
		fmt.Fprintf(out, "  token scopes: %s (as listed by the instance)\n", strings.Join(scopes, ", "))
		if len(t.Repositories) > 0 {
			names := make([]string, 0, len(t.Repositories))
			for _, r := range t.Repositories {
				names = append(names, r.FullName)
			}
			fmt.Fprintf(out, "  restricted to: %s\n", strings.Join(names, ", "))
		}
		return true
	}
	return false
}

// probeOwner is the owner name the organization and package reads name
// when the token's user is not known: the instance checks the scope
// before it looks the owner up, so any name tells the scope apart.
const probeOwner = "forgego-scope-probe"

// probeScopes sends one read per scope category and prints which the
// instance refused for the token's scope and which it let through;
// userRefused is the answer GET /user already gave.
// Anything but a scope refusal (a 404, a 403 for a permission) passed the
// scope check.
func (a *authCmds) probeScopes(ctx context.Context, c *forgejo.Client, login string, userRefused bool) {
	if login == "" {
		login = probeOwner
	}
	var refused, allowed []string
	if userRefused {
		refused = append(refused, "read:user")
	} else {
		allowed = append(allowed, "read:user")
	}
	one := &forgejo.ListOptions{Limit: 1}
	probes := []struct {
		scope forgejo.TokenScope
		call  func() error
	}{
		{"read:repository", func() error {
			_, _, err := c.Repos.Search(ctx, &forgejo.RepoSearchOptions{ListOptions: *one})
			return err
		}},
		{"read:issue", func() error {
			_, _, err := c.Issues.Search(ctx, &forgejo.IssueSearchOptions{ListOptions: *one})
			return err
		}},
		{"read:organization", func() error { _, _, err := c.Orgs.Get(ctx, login); return err }},
		{"read:notification", func() error {
			_, _, err := c.Notifications.List(ctx, &forgejo.NotificationListOptions{ListOptions: *one})
			return err
		}},
		{"read:package", func() error {
			_, _, err := c.Packages.List(ctx, login, &forgejo.PackageListOptions{ListOptions: *one})
			return err
		}},
		{"read:admin", func() error { _, _, err := c.Admin.ListCronTasks(ctx, one); return err }},
	}
	for _, p := range probes {
		err := p.call()
		var se *forgejo.ScopeError
		var te *forgejo.TransportError
		switch {
		case errors.As(err, &se):
			refused = append(refused, string(p.scope))
		case errors.As(err, &te) || ctx.Err() != nil:
			fmt.Fprintf(a.f.IOStreams.Out, "  the scopes were not probed: %s\n", cmdutil.Describe(err))
			return
		default:
			allowed = append(allowed, string(p.scope))
		}
	}
	if len(refused) == 0 {
		fmt.Fprintln(a.f.IOStreams.Out, "  token scopes: no read refused (one probed per category; writes not tried)")
		return
	}
	line := "  token scopes: refused " + strings.Join(refused, ", ")
	if len(allowed) > 0 {
		line += "; allowed " + strings.Join(allowed, ", ")
	}
	fmt.Fprintln(a.f.IOStreams.Out, line+" (one read probed per category; writes not tried)")
}

// TokenOptions are 'auth token' parsed.
type TokenOptions struct {
	F        *cmdutil.Factory
	Hostname string // "" = FORGEJO_TOKEN, else the instance the commands use
}

// NewCmdToken is 'auth token'.
func NewCmdToken(f *cmdutil.Factory, runF func(*TokenOptions) error) *cobra.Command {
	a := &authCmds{f: f}
	var hostname string
	cmd := &cobra.Command{
		Use:   "token [--hostname URL]",
		Short: "Print the token a command would use",
		Long: `Print the token for the instance (--hostname, else the one the commands use)
on standard output: FORGEJO_TOKEN when it is set and no --hostname is given,
else the stored one. This is the only command that prints a token.`,
		Example: `  curl -H "Authorization: token $(forgego auth token)" https://codeberg.org/api/v1/user`,
		Args:    cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(&TokenOptions{F: f, Hostname: hostname})
			}
			token := ""
			if hostname == "" && !a.f.Embedded() {
				token = strings.TrimSpace(a.f.Getenv("FORGEJO_TOKEN"))
			}
			if token == "" {
				host, err := a.authHost(hostname)
				if err != nil {
					return err
				}
				cfg, err := a.f.Config()
				if err != nil {
					return err
				}
				hc := cfg.Hosts[host]
				if hc == nil {
					return &cmdutil.AuthMissingError{Msg: fmt.Sprintf("no token stored for %s; run 'forgego auth login --hostname %s --with-token'", host, host)}
				}
				token = hc.Token
			}
			a.f.IOStreams.Flush()
			_, err := fmt.Fprintln(a.f.IOStreams.RawOut, token)
			return err
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name")
	return cmd
}

// LogoutOptions are 'auth logout' parsed.
type LogoutOptions struct {
	F        *cmdutil.Factory
	Hostname string // "" = the default instance, or the only one
}

// NewCmdLogout is 'auth logout'.
func NewCmdLogout(f *cmdutil.Factory, runF func(*LogoutOptions) error) *cobra.Command {
	a := &authCmds{f: f}
	var hostname string
	cmd := &cobra.Command{
		Use:   "logout [--hostname URL]",
		Short: "Forget the token stored for an instance",
		Long: `Remove the token stored for the instance (--hostname, else the default, or
the only one). The token stays valid on the instance: revoke it there, in the
settings (Applications).`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if a.f.Embedded() {
				return cmdutil.Usagef("the auth commands do not work with --embedded: the demo needs no token")
			}
			if runF != nil {
				return runF(&LogoutOptions{F: f, Hostname: hostname})
			}
			cfg, err := a.f.Config()
			if err != nil {
				return err
			}
			var host string
			switch {
			case hostname != "":
				if host, err = config.NormalizeHost(hostname); err != nil {
					return cmdutil.Usagef("--hostname: %v", err)
				}
			case cfg.Default != "":
				host = cfg.Default
			case len(cfg.Hosts) == 1:
				host = cfg.HostNames()[0]
			case len(cfg.Hosts) == 0:
				return fmt.Errorf("not logged in to any instance")
			default:
				return cmdutil.Usagef("logged in to several instances and none is the default: say which with --hostname (%s)", strings.Join(cfg.HostNames(), ", "))
			}
			if cfg.Hosts[host] == nil {
				return fmt.Errorf("not logged in to %s", host)
			}
			delete(cfg.Hosts, host)
			if cfg.Default == host {
				cfg.Default = ""
				if names := cfg.HostNames(); len(names) == 1 {
					cfg.Default = names[0]
				}
			}
			if err := a.f.SaveConfig(cfg); err != nil {
				return err
			}
			fmt.Fprintf(a.f.IOStreams.ErrOut, "logged out of %s (revoke the token on the instance if it is no longer needed)\n", host)
			return nil
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name")
	return cmd
}

// IsLoopback reports whether host names this machine.
func IsLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

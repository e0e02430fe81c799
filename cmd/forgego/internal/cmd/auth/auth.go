// Package auth is 'forgego auth': login, status, token and logout.
package auth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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

// LoginOptions are 'auth login' parsed: the instance, and the token read
// from standard input.
type LoginOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Host  string
	Token string
}

// NewCmdLogin is 'auth login'; runF, when not nil, runs instead of the
// check and the store.
func NewCmdLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	a := &authCmds{f: f}
	var hostname string
	var withToken bool
	cmd := &cobra.Command{
		Use:   "login --with-token [--hostname URL] < token.txt",
		Short: "Store an access token for an instance",
		Long: `Read an access token from standard input (--with-token), check it with
GET /user, store it for the instance and make that instance the default.
Create the token in the instance's settings (Applications); give it the
scopes the commands you use need.

` + Precedence,
		Example: `  forgego auth login --hostname codeberg.org --with-token < token.txt
  echo "$TOKEN" | forgego auth login --hostname https://git.example.org --with-token`,
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if !withToken {
				return cmdutil.Usagef("auth login needs --with-token and the token on standard input (there is no interactive login)")
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
				return runF(&LoginOptions{F: f, Ctx: cmd.Context(), Host: host, Token: token})
			}
			cfg, err := a.f.Config()
			if err != nil {
				return err
			}
			u, err := a.whoami(cmd.Context(), host, token)
			if err != nil {
				return &cmdutil.PrefixedError{Prefix: "the token was not stored: ", Err: err}
			}
			cfg.Hosts[host] = &config.Host{User: u.Login, Token: token}
			cfg.Default = host
			if err := a.f.SaveConfig(cfg); err != nil {
				return err
			}
			fmt.Fprintf(a.f.IOStreams.ErrOut, "logged in to %s as %s (the default instance now)\n", host, u.Login)
			if strings.HasPrefix(host, "http://") && !IsLoopback(config.HostOnly(host)) {
				fmt.Fprintf(a.f.IOStreams.ErrOut, "warning: %s is plain http: the token crosses the network unencrypted on every request\n", host)
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name (default: the instance the other commands use)")
	cmd.Flags().BoolVar(&withToken, "with-token", false, "read the token from standard input")
	return cmd
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
and say which instance is the default. The tokens are not shown. The exit
status is 1 when a token is refused or no instance is logged in to.

` + Precedence,
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
			if env := strings.TrimSpace(a.f.Getenv("FORGEJO_TOKEN")); env != "" {
				fmt.Fprintln(a.f.IOStreams.Out, "FORGEJO_TOKEN is set: it is used instead of the stored tokens")
			}
			if u := a.f.URLFlag(); u != "" {
				fmt.Fprintf(a.f.IOStreams.Out, "--url is set: the commands use %s\n", u)
			} else if u := a.f.Getenv("FORGEJO_URL"); u != "" {
				fmt.Fprintf(a.f.IOStreams.Out, "FORGEJO_URL is set: the commands use %s\n", u)
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
				fmt.Fprintf(a.f.IOStreams.Out, "%s%s\n", h, def)
				u, err := a.whoami(cmd.Context(), h, hc.Token)
				if err != nil {
					failed++
					fmt.Fprintf(a.f.IOStreams.Out, "  X the stored token for %s does not work: %s\n", hc.User, cmdutil.Describe(err))
					continue
				}
				fmt.Fprintf(a.f.IOStreams.Out, "  logged in as %s\n", u.Login)
			}
			if failed > 0 {
				return &cmdutil.AuthMissingError{Msg: fmt.Sprintf("%d of %d stored tokens refused", failed, len(cfg.Hosts))}
			}
			return nil
		}),
	}
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

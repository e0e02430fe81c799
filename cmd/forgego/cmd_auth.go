package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

const authPrecedence = `Which instance and token a command uses, first match wins:

  instance  --url, FORGEJO_URL, the logged-in instance the repository's git
            remote is on, the default (the last 'auth login'), https://codeberg.org
  token     FORGEJO_TOKEN, the token stored for that instance

The tokens are stored in $XDG_CONFIG_HOME/forgego/hosts.json (else
~/.config/forgego/hosts.json), mode 0600; a file others can read is refused.
No command prints a token but 'auth token'.`

func (a *app) authCmd() *cobra.Command {
	cmd := groupCmd("auth", "Log in to an instance, and out")
	cmd.Long = "Store an access token per instance.\n\n" + authPrecedence
	cmd.AddCommand(a.authLoginCmd(), a.authStatusCmd(), a.authTokenCmd(), a.authLogoutCmd())
	return cmd
}

// authHost is --hostname, else the instance the command would use.
func (a *app) authHost(hostname string) (string, error) {
	if a.g.embedded {
		return "", usagef("the auth commands do not work with --embedded: the demo needs no token")
	}
	h := hostname
	if h == "" {
		base, _, err := a.instance("")
		if err != nil {
			return "", err
		}
		h = base
	}
	key, err := normalizeHost(h)
	if err != nil {
		if hostname != "" {
			return "", usagef("--hostname: %v", err)
		}
		return "", fmt.Errorf("the instance: %w", err)
	}
	return key, nil
}

// whoami asks the instance who the token belongs to (GET /user).
func (a *app) whoami(host, token string) (*forgejo.User, error) {
	c, err := forgejo.NewClient(append(a.clientOptions(), forgejo.WithBaseURL(host), forgejo.WithToken(token))...)
	if err != nil {
		return nil, err
	}
	u, _, err := c.Users.GetCurrent(a.ctx)
	return u, err
}

func (a *app) authLoginCmd() *cobra.Command {
	var hostname string
	var withToken bool
	cmd := &cobra.Command{
		Use:   "login --with-token [--hostname URL] < token.txt",
		Short: "Store an access token for an instance",
		Long: `Read an access token from standard input (--with-token), check it with
GET /user, store it for the instance and make that instance the default.
Create the token in the instance's settings (Applications); give it the
scopes the commands you use need.

` + authPrecedence,
		Example: `  forgego auth login --hostname codeberg.org --with-token < token.txt
  echo "$TOKEN" | forgego auth login --hostname https://git.example.org --with-token`,
		Args:              noArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if !withToken {
				return usagef("auth login needs --with-token and the token on standard input (there is no interactive login)")
			}
			host, err := a.authHost(hostname)
			if err != nil {
				return err
			}
			token, err := readToken(a.stdin)
			if err != nil {
				return err
			}
			a.mask.Add(token)
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			u, err := a.whoami(host, token)
			if err != nil {
				return &prefixedError{Prefix: "the token was not stored: ", Err: err}
			}
			cfg.Hosts[host] = &hostConfig{User: u.Login, Token: token}
			cfg.Default = host
			if err := a.saveConfig(cfg); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "logged in to %s as %s (the default instance now)\n", host, u.Login)
			if strings.HasPrefix(host, "http://") && !isLoopback(hostOnly(host)) {
				fmt.Fprintf(a.stderr, "warning: %s is plain http: the token crosses the network unencrypted on every request\n", host)
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
		return "", usagef("--with-token: no standard input")
	}
	line, err := bufio.NewReader(io.LimitReader(r, 64<<10)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the token: %w", err)
	}
	token := strings.TrimSpace(line)
	if token == "" {
		return "", usagef("--with-token: standard input holds no token")
	}
	if strings.ContainsAny(token, " \t\r\x00") {
		return "", usagef("--with-token: the token has spaces or control characters in it")
	}
	return token, nil
}

func (a *app) authStatusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the instances logged in to, and check their tokens",
		Long: `List every instance with a stored token, check each token with GET /user,
and say which instance is the default. The tokens are not shown. The exit
status is 1 when a token is refused or no instance is logged in to.

` + authPrecedence,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if a.g.embedded {
				return usagef("the auth commands do not work with --embedded: the demo needs no token")
			}
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			if env := strings.TrimSpace(a.getenv("FORGEJO_TOKEN")); env != "" {
				fmt.Fprintln(a.stdout, "FORGEJO_TOKEN is set: it is used instead of the stored tokens")
			}
			if u := a.g.url; u != "" {
				fmt.Fprintf(a.stdout, "--url is set: the commands use %s\n", u)
			} else if u := a.getenv("FORGEJO_URL"); u != "" {
				fmt.Fprintf(a.stdout, "FORGEJO_URL is set: the commands use %s\n", u)
			}
			if len(cfg.Hosts) == 0 {
				return &authMissingError{Msg: "not logged in to any instance; run 'forgego auth login --hostname URL --with-token'"}
			}
			failed := 0
			for _, h := range cfg.HostNames() {
				hc := cfg.Hosts[h]
				def := ""
				if h == cfg.Default {
					def = " (default)"
				}
				fmt.Fprintf(a.stdout, "%s%s\n", h, def)
				u, err := a.whoami(h, hc.Token)
				if err != nil {
					failed++
					fmt.Fprintf(a.stdout, "  X the stored token for %s does not work: %s\n", hc.User, describe(err))
					continue
				}
				fmt.Fprintf(a.stdout, "  logged in as %s\n", u.Login)
			}
			if failed > 0 {
				return &authMissingError{Msg: fmt.Sprintf("%d of %d stored tokens refused", failed, len(cfg.Hosts))}
			}
			return nil
		}),
	}
}

func (a *app) authTokenCmd() *cobra.Command {
	var hostname string
	cmd := &cobra.Command{
		Use:   "token [--hostname URL]",
		Short: "Print the token a command would use",
		Long: `Print the token for the instance (--hostname, else the one the commands use)
on standard output: FORGEJO_TOKEN when it is set and no --hostname is given,
else the stored one. This is the only command that prints a token.`,
		Example: `  curl -H "Authorization: token $(forgego auth token)" https://codeberg.org/api/v1/user`,
		Args:    noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			token := ""
			if hostname == "" && !a.g.embedded {
				token = strings.TrimSpace(a.getenv("FORGEJO_TOKEN"))
			}
			if token == "" {
				host, err := a.authHost(hostname)
				if err != nil {
					return err
				}
				cfg, err := a.loadConfig()
				if err != nil {
					return err
				}
				hc := cfg.Hosts[host]
				if hc == nil {
					return &authMissingError{Msg: fmt.Sprintf("no token stored for %s; run 'forgego auth login --hostname %s --with-token'", host, host)}
				}
				token = hc.Token
			}
			_, err := fmt.Fprintln(a.rawStdout, token)
			return err
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name")
	return cmd
}

func (a *app) authLogoutCmd() *cobra.Command {
	var hostname string
	cmd := &cobra.Command{
		Use:   "logout [--hostname URL]",
		Short: "Forget the token stored for an instance",
		Long: `Remove the token stored for the instance (--hostname, else the default, or
the only one). The token stays valid on the instance: revoke it there, in the
settings (Applications).`,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if a.g.embedded {
				return usagef("the auth commands do not work with --embedded: the demo needs no token")
			}
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			var host string
			switch {
			case hostname != "":
				if host, err = normalizeHost(hostname); err != nil {
					return usagef("--hostname: %v", err)
				}
			case cfg.Default != "":
				host = cfg.Default
			case len(cfg.Hosts) == 1:
				host = cfg.HostNames()[0]
			case len(cfg.Hosts) == 0:
				return fmt.Errorf("not logged in to any instance")
			default:
				return usagef("logged in to several instances and none is the default: say which with --hostname (%s)", strings.Join(cfg.HostNames(), ", "))
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
			if err := a.saveConfig(cfg); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "logged out of %s (revoke the token on the instance if it is no longer needed)\n", host)
			return nil
		}),
	}
	cmd.Flags().StringVar(&hostname, "hostname", "", "the instance's `URL` or host name")
	return cmd
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

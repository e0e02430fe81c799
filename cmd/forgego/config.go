package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The configuration file holds one access token per instance and the
// default instance, as JSON:
//
//	{
//	  "default": "https://codeberg.org",
//	  "hosts": {
//	    "https://codeberg.org": {"user": "alice", "token": "…"}
//	  }
//	}
//
// It is $XDG_CONFIG_HOME/forgego/hosts.json (else ~/.config/forgego/),
// mode 0600 in a 0700 directory, written whole to a temporary file and
// renamed over the old one, so that a reader never sees half a file. A file
// that others may read (group or world bits set) is refused, not repaired:
// its tokens may have leaked already, and the user should know.

const configFile = "hosts.json"

type hostConfig struct {
	User  string `json:"user,omitempty"`
	Token string `json:"token"`
}

type config struct {
	Default string                 `json:"default,omitempty"`
	Hosts   map[string]*hostConfig `json:"hosts"`
}

// configDir is $XDG_CONFIG_HOME/forgego, else $HOME/.config/forgego; empty
// when neither is set.
func (a *app) configDir() string {
	if x := a.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "forgego")
	}
	if h := a.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "forgego")
	}
	return ""
}

func (a *app) configPath() string {
	d := a.configDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, configFile)
}

// loadConfig reads the configuration, once; a missing file is an empty
// configuration. Every stored token is masked from then on.
func (a *app) loadConfig() (*config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	cfg := &config{Hosts: map[string]*hostConfig{}}
	path := a.configPath()
	if path == "" {
		a.cfg = cfg
		return cfg, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		a.cfg = cfg
		return cfg, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by others (mode %04o): its tokens may have leaked; revoke them, then 'chmod 600 %s' or remove the file and log in again", path, perm, path)
	}
	if err := json.NewDecoder(f).Decode(cfg); err != nil {
		return nil, fmt.Errorf("%s is not a forgego configuration (%v); remove it and log in again", path, oneLine(err.Error()))
	}
	if cfg.Hosts == nil {
		cfg.Hosts = map[string]*hostConfig{}
	}
	for h, hc := range cfg.Hosts {
		if hc == nil {
			delete(cfg.Hosts, h)
			continue
		}
		a.mask.Add(hc.Token)
	}
	a.cfg = cfg
	return cfg, nil
}

// saveConfig writes the configuration atomically, mode 0600.
func (a *app) saveConfig(cfg *config) error {
	dir := a.configDir()
	if dir == "" {
		return errors.New("no place for the configuration: set XDG_CONFIG_HOME or HOME")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".hosts-*.json") // created 0600
	if err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up a failure
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the configuration: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the configuration: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the configuration: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, configFile)); err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	a.cfg = cfg
	return nil
}

// hostNames are the configured instances, sorted.
func (c *config) hostNames() []string {
	names := make([]string, 0, len(c.Hosts))
	for h := range c.Hosts {
		names = append(names, h)
	}
	sort.Strings(names)
	return names
}

// normalizeHost turns what a user names an instance by ("codeberg.org",
// "https://git.example.org/forgejo/", "http://127.0.0.1:3000/api/v1") into
// the key the configuration uses: scheme://host[:port][/path], lower-case
// host, no trailing slash, no /api/v1. A URL with credentials, a query or a
// fragment is refused (and not repeated in the message).
func normalizeHost(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("no instance named")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", errors.New("not a URL such as https://codeberg.org")
	}
	switch {
	case u.User != nil:
		return "", errors.New("the URL carries a user name or password; give the instance's URL alone and the token on standard input")
	case u.Scheme != "https" && u.Scheme != "http":
		return "", fmt.Errorf("the scheme must be https or http, not %q", u.Scheme)
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("the URL names no host")
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", errors.New("the URL has a query or fragment; give the instance's URL alone")
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, "/api/v1")
	return u.Scheme + "://" + strings.ToLower(u.Host) + strings.TrimRight(p, "/"), nil
}

// hostOnly is the host name of a configuration key, lower case, without
// the port.
func hostOnly(key string) string {
	u, err := url.Parse(key)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

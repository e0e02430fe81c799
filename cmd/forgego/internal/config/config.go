// Package config is forgego's configuration file: a token per instance
// and the default instance.
package config

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

// File is the configuration file's name.
const File = "hosts.json"

// Host is what is stored for an instance.
type Host struct {
	User  string `json:"user,omitempty"`
	Token string `json:"token"`
}

// Config is the configuration.
type Config struct {
	Default string           `json:"default,omitempty"`
	Hosts   map[string]*Host `json:"hosts"`
}

// Dir is $XDG_CONFIG_HOME/forgego, else $HOME/.config/forgego; empty when
// neither is set.
func Dir(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "forgego")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "forgego")
	}
	return ""
}

// Path is the configuration file's path, or "".
func Path(getenv func(string) string) string {
	d := Dir(getenv)
	if d == "" {
		return ""
	}
	return filepath.Join(d, File)
}

// Load reads the configuration; a missing file is an empty configuration.
// Every stored token is given to mask.
func Load(getenv func(string) string, mask func(string)) (*Config, error) {
	cfg := &Config{Hosts: map[string]*Host{}}
	path := Path(getenv)
	if path == "" {
		return cfg, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
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
		return nil, fmt.Errorf("%s is not a forgego configuration (%v); remove it and log in again", path, strings.Join(strings.Fields(err.Error()), " "))
	}
	if cfg.Hosts == nil {
		cfg.Hosts = map[string]*Host{}
	}
	for h, hc := range cfg.Hosts {
		if hc == nil {
			delete(cfg.Hosts, h)
			continue
		}
		mask(hc.Token)
	}
	return cfg, nil
}

// Save writes the configuration atomically, mode 0600.
func Save(getenv func(string) string, cfg *Config) error {
	dir := Dir(getenv)
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
	if err := os.Rename(tmp.Name(), filepath.Join(dir, File)); err != nil {
		return fmt.Errorf("writing the configuration: %w", err)
	}
	return nil
}

// HostNames are the configured instances, sorted.
func (c *Config) HostNames() []string {
	names := make([]string, 0, len(c.Hosts))
	for h := range c.Hosts {
		names = append(names, h)
	}
	sort.Strings(names)
	return names
}

// NormalizeHost turns what a user names an instance by ("codeberg.org",
// "https://git.example.org/forgejo/", "http://127.0.0.1:3000/api/v1") into
// the key the configuration uses: scheme://host[:port][/path], lower-case
// host, no trailing slash, no /api/v1. A URL with credentials, a query or a
// fragment is refused (and not repeated in the message).
func NormalizeHost(s string) (string, error) {
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

// HostOnly is the host name of a configuration key, lower case, without
// the port.
func HostOnly(key string) string {
	u, err := url.Parse(key)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

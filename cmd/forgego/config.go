package main

import (
	cfgpkg "codeberg.org/forgego/forgejo/cmd/forgego/internal/config"
)

// The configuration file is internal/config's; the factory's Config and
// SaveConfig read it once and write it through these.

type (
	config = cfgpkg.Config
)

var (
	normalizeHost = cfgpkg.NormalizeHost
	hostOnly      = cfgpkg.HostOnly
)

// loadConfig reads the configuration, once; a missing file is an empty
// configuration. Every stored token is masked from then on.
func (a *app) loadConfig() (*config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	cfg, err := cfgpkg.Load(a.getenv, a.mask.Add)
	if err != nil {
		return nil, err
	}
	a.cfg = cfg
	return cfg, nil
}

// saveConfig writes the configuration atomically, mode 0600.
func (a *app) saveConfig(cfg *config) error {
	if err := cfgpkg.Save(a.getenv, cfg); err != nil {
		return err
	}
	a.cfg = cfg
	return nil
}

package forgejotest

// The contract scenario's steps for PackagesService. Same rules as contract_test.go; runScenario calls them in order.

// packagesArea: the scenario cannot publish a package on both targets (the
// fake has no registry; see Server.AddPackage), so it checks the empty
// listing and the refusals.
func (s *scenario) packagesArea() {
	c2 := s.tg.c2
	u2 := s.tg.user2
	ps, resp, err := c2.Packages.List(s.ctx, u2, nil)
	s.must(err, "list packages")
	total, _ := resp.TotalCount()
	s.note("packages of user2: %d (total %d)", len(ps), total)
	anon, _, err := s.tg.anon.Packages.List(s.ctx, u2, nil)
	if s.tg.forgejo {
		// Differs on purpose: anyone may list a user's packages on Forgejo
		// 15 (200 []); Gitea 1.27 wants a token.
		if err != nil || anon == nil || len(anon) != 0 {
			s.t.Errorf("packages anonymously on %s: %v %v", s.tg.name, anon, err)
		}
	} else if e := s.apiErr(err, "packages anonymously"); e.StatusCode != 401 || e.Message != "token is required" {
		s.t.Errorf("packages anonymously on %s: %d %q", s.tg.name, e.StatusCode, e.Message)
	}
	check := func(what string, err error, title string) {
		s.t.Helper()
		e := s.apiErr(err, what)
		s.note("%s: %d", what, e.StatusCode)
		// Differs on purpose: Forgejo's ctx.Error sends the error alone,
		// Gitea 1.27 prefixes it with the step that failed.
		if want := map[bool]string{true: "package does not exist", false: title + ": package does not exist"}[s.tg.forgejo]; e.Message != want {
			s.t.Errorf("%s on %s: %q", what, s.tg.name, e.Message)
		}
	}
	_, _, err = c2.Packages.Get(s.ctx, u2, "generic", "nope", "1.0")
	check("a missing package", err, "GetVersionByNameAndVersion")
	_, _, err = c2.Packages.ListFiles(s.ctx, u2, "generic", "nope", "1.0")
	check("its files", err, "GetVersionByNameAndVersion")
	_, err = c2.Packages.Delete(s.ctx, u2, "generic", "nope", "1.0")
	check("deleting it", err, "GetVersionByNameAndVersion")
	_, err = c2.Packages.Link(s.ctx, u2, "generic", "nope", "some-repo")
	check("linking it", err, "GetPackageByName")
	_, err = c2.Packages.Unlink(s.ctx, u2, "generic", "nope")
	check("unlinking it", err, "GetPackageByName")
}

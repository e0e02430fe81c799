package forgejotest

// repoMoreArea is this area's part of the contract scenario.
func (s *scenario) repoMoreArea() {}

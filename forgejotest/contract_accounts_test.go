package forgejotest

// accountsArea is this area's part of the contract scenario.
func (s *scenario) accountsArea() {}

package forgejotest

// actionsArea is this area's part of the contract scenario.
func (s *scenario) actionsArea() {}

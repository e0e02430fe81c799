package forgejotest

// accountsState is this area's part of the model, guarded by Server.mu.
type accountsState struct{}

// accountRoutes are this area's rows of the route table.
func accountRoutes() []routeSpec { return nil }

package forgejotest

// actionsState is this area's part of the model, guarded by Server.mu.
type actionsState struct{}

// actionsRoutes are this area's rows of the route table.
func actionsRoutes() []routeSpec { return nil }

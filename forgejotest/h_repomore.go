package forgejotest

// moreState is this area's part of the model, guarded by Server.mu.
type moreState struct{}

// repoMoreRoutes are this area's rows of the route table.
func repoMoreRoutes() []routeSpec { return nil }

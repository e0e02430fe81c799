package forgejotest

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Forgejo Actions: secrets, variables, runners and their registration
// tokens, per scope (a repository, a user or organization, the instance),
// as Forgejo 15 answers them. Runs, jobs, tasks, logs and artifacts are in
// h_actions_runs.go, the seeding helpers in h_actions_seed.go.

// actionsState is this area's part of the model, guarded by Server.mu. Its
// zero value is ready: maps are made on first use.
type actionsState struct {
	secrets   []*actionSecret   // every scope, in creation order
	variables []*actionVariable // every scope, in creation order
	runners   []*actionRunner   // every scope, in registration order
	regTokens map[actionsScope]string
	runs      []*actionRun      // every repository, in creation order
	artifacts []*actionArtifact // every run, in creation order
	nextIndex map[int64]int64   // per repository id: the last run number
	bot       *user             // who an automatic task token authenticates as
	sims      []*simRunner      // attached simulated runners (h_actions_runner.go)
	observing bool              // the FakeClock's moves advance the runs
}

// actionsScope is whom something belongs to, as Forgejo's (ownerID, repoID)
// pair: a repository (ownerID 0), a user or an organization (repoID 0), or
// the instance (both 0; runners and registration tokens only).
type actionsScope struct{ ownerID, repoID int64 }

type actionSecret struct {
	id      int64
	scope   actionsScope
	name    string // upper-cased, as Forgejo stores it
	data    string // write-only: never rendered
	created time.Time
}

type actionVariable struct {
	id    int64
	scope actionsScope
	name  string // upper-cased
	data  string
}

type actionRunner struct {
	id          int64
	uuid        string
	name        string
	description string
	ephemeral   bool
	scope       actionsScope
	token       string
	sim         *simRunner // an attached simulated runner (h_actions_runner.go)
}

type wSecret struct {
	Name    string `json:"name"`
	Created string `json:"created_at"`
}

type wVariable struct {
	OwnerID int64  `json:"owner_id"`
	RepoID  int64  `json:"repo_id"`
	Name    string `json:"name"`
	Data    string `json:"data"`
}

type wRunner struct {
	ID          int64    `json:"id"`
	UUID        string   `json:"uuid"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	OwnerID     int64    `json:"owner_id"`
	RepoID      int64    `json:"repo_id"`
	Description string   `json:"description"`
	Labels      []string `json:"labels"`
	Status      string   `json:"status"`
	Ephemeral   bool     `json:"ephemeral"`
}

func (rn *actionRunner) wire() *wRunner {
	if rn.sim != nil {
		return rn.sim.wire(rn)
	}
	// A registered runner that never connected: no version, no labels,
	// offline.
	return &wRunner{ID: rn.id, UUID: rn.uuid, Name: rn.name, OwnerID: rn.scope.ownerID, RepoID: rn.scope.repoID,
		Description: rn.description, Labels: []string{}, Status: "offline", Ephemeral: rn.ephemeral}
}

// randomHex is n random bytes in hex: runner and registration tokens.
func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("forgejotest: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// ---- scopes and who may use them

// scopeFn resolves a route's scope and checks the caller's right to it,
// answering the refusal itself.
type scopeFn func(c *call) (actionsScope, bool)

// repoScope: Forgejo's reqOwner: the repository's owner (an owner of the
// owning organization) or a site administrator.
func repoScope(c *call) (actionsScope, bool) {
	r := c.pathRepo()
	if r == nil {
		return actionsScope{}, false
	}
	if access(c.user, r) < accessOwner {
		c.fail(http.StatusForbidden, "user should be the owner of the repo")
		return actionsScope{}, false
	}
	return actionsScope{repoID: r.id}, true
}

// orgScope: an owner of the organization (reqOrgOwnership).
func orgScope(c *call) (actionsScope, bool) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return actionsScope{}, false
	}
	return actionsScope{ownerID: o.id}, true
}

// userScope: the signed-in user's own.
func userScope(c *call) (actionsScope, bool) { return actionsScope{ownerID: c.user.id}, true }

// adminScope: the instance, for site administrators (reqSiteAdmin).
func adminScope(c *call) (actionsScope, bool) {
	if !c.user.isAdmin {
		c.fail(http.StatusForbidden, "user should be the site admin")
		return actionsScope{}, false
	}
	return actionsScope{}, true
}

// ---- secrets

// Forgejo's secret (and variable) names: letters, digits and underscores,
// not starting with a digit nor with a prefix the runners reserve; compared
// and stored upper-cased.
var (
	actionsNameRE     = regexp.MustCompile(`(?i)^[A-Z_][A-Z0-9_]*$`)
	actionsReservedRE = regexp.MustCompile(`(?i)^(FORGEJO_|GITEA_|GITHUB_|[0-9])`)
)

func validActionsName(name string) bool {
	return actionsNameRE.MatchString(name) && !actionsReservedRE.MatchString(name)
}

// textareaValue normalizes line endings as Forgejo's
// ReserveLineBreakForTextarea does.
func textareaValue(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func (a *actionsState) secret(sc actionsScope, name string) *actionSecret {
	for _, s := range a.secrets {
		if s.scope == sc && s.name == strings.ToUpper(name) {
			return s
		}
	}
	return nil
}

func hListSecrets(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var mine []*actionSecret
		for _, s := range c.st.actions.secrets {
			if s.scope == sc {
				mine = append(mine, s)
			}
		}
		// Forgejo lists them by name (then id).
		slices.SortStableFunc(mine, func(a, b *actionSecret) int { return strings.Compare(a.name, b.name) })
		out := []*wSecret{}
		for _, s := range paginate(c, mine, pageTotalOnly) {
			out = append(out, &wSecret{Name: s.name, Created: ts(s.created)})
		}
		c.json(http.StatusOK, out)
	}
}

// hPutSecret creates (201) or replaces (204) a secret.
func hPutSecret(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var b struct {
			Data string `json:"data"`
		}
		if !c.decode(&b) {
			return
		}
		if b.Data == "" {
			c.fail(http.StatusUnprocessableEntity, "[Data]: Required")
			return
		}
		name := c.p["secretname"]
		if !validActionsName(name) {
			c.fail(http.StatusBadRequest, "invalid secret name")
			return
		}
		a := &c.st.actions
		if s := a.secret(sc, name); s != nil {
			s.data = textareaValue(b.Data)
			c.empty(http.StatusNoContent)
			return
		}
		a.secrets = append(a.secrets, &actionSecret{id: c.st.id("secret"), scope: sc, name: strings.ToUpper(name),
			data: textareaValue(b.Data), created: c.now})
		c.empty(http.StatusCreated)
	}
}

func hDeleteSecret(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		// Forgejo looks the name up without validating it, and its
		// not-found error leaves the name out.
		a := &c.st.actions
		s := a.secret(sc, c.p["secretname"])
		if s == nil {
			c.fail(http.StatusNotFound, "secret was not found [name: ]")
			return
		}
		a.secrets = slices.DeleteFunc(a.secrets, func(x *actionSecret) bool { return x == s })
		c.empty(http.StatusNoContent)
	}
}

// ---- variables

func (a *actionsState) variable(sc actionsScope, name string) *actionVariable {
	for _, v := range a.variables {
		if v.scope == sc && v.name == strings.ToUpper(name) {
			return v
		}
	}
	return nil
}

func (v *actionVariable) wire() *wVariable {
	return &wVariable{OwnerID: v.scope.ownerID, RepoID: v.scope.repoID, Name: v.name, Data: v.data}
}

// validVariableName holds a variable's name to the secrets' rule (and its
// message), and refuses CI, which the runner sets itself.
func (c *call) validVariableName(name string) bool {
	switch {
	case !validActionsName(name):
		c.fail(http.StatusBadRequest, "invalid secret name")
		return false
	case strings.EqualFold(name, "CI"):
		c.fail(http.StatusBadRequest, "env name cannot be ci")
		return false
	}
	return true
}

// variableNotFound is Forgejo's 404 for a variable name nobody defined.
func (c *call) variableNotFound() { c.fail(http.StatusNotFound, "variable not found") }

func hListVariables(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var mine []*actionVariable
		for _, v := range c.st.actions.variables {
			if v.scope == sc {
				mine = append(mine, v)
			}
		}
		out := []*wVariable{}
		for _, v := range paginate(c, mine, pageTotalOnly) {
			out = append(out, v.wire())
		}
		c.json(http.StatusOK, out)
	}
}

func hGetVariable(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		v := c.st.actions.variable(sc, c.p["variablename"])
		if v == nil {
			c.variableNotFound()
			return
		}
		c.json(http.StatusOK, v.wire())
	}
}

// hCreateVariable answers 204, as Forgejo 15 does (Gitea 1.27: 201); a
// name taken is 409, checked before the name's validity.
func hCreateVariable(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var b struct {
			Value string `json:"value"`
		}
		if !c.decode(&b) {
			return
		}
		if b.Value == "" {
			c.fail(http.StatusUnprocessableEntity, "[Value]: Required")
			return
		}
		name := c.p["variablename"]
		a := &c.st.actions
		if a.variable(sc, name) != nil {
			c.fail(http.StatusConflict, "variable name "+name+" already exists")
			return
		}
		if !c.validVariableName(name) {
			return
		}
		a.variables = append(a.variables, &actionVariable{id: c.st.id("variable"), scope: sc,
			name: strings.ToUpper(name), data: textareaValue(b.Value)})
		c.empty(http.StatusNoContent)
	}
}

// hUpdateVariable sets the value and, with a name, renames.
func hUpdateVariable(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var b struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		}
		if !c.decode(&b) {
			return
		}
		if b.Value == "" {
			c.fail(http.StatusUnprocessableEntity, "[Value]: Required")
			return
		}
		a := &c.st.actions
		v := a.variable(sc, c.p["variablename"])
		if v == nil {
			c.variableNotFound()
			return
		}
		name := b.Name
		if name == "" {
			name = c.p["variablename"]
		}
		if !c.validVariableName(name) {
			return
		}
		if other := a.variable(sc, name); other != nil && other != v {
			// The unique index (owner, repo, name) refuses it: Forgejo
			// answers the database's error as a 500.
			c.internalError("UNIQUE constraint failed: action_variable.owner_id, action_variable.repo_id, action_variable.name")
			return
		}
		v.name, v.data = strings.ToUpper(name), textareaValue(b.Value)
		c.empty(http.StatusNoContent)
	}
}

func hDeleteVariable(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		name := c.p["variablename"]
		if !c.validVariableName(name) {
			return
		}
		a := &c.st.actions
		v := a.variable(sc, name)
		if v == nil {
			c.variableNotFound()
			return
		}
		a.variables = slices.DeleteFunc(a.variables, func(x *actionVariable) bool { return x == v })
		c.empty(http.StatusNoContent)
	}
}

// ---- runners and registration tokens

// visibleFrom reports whether a runner of rn's scope serves sc: its own, and
// with visible also the owner's and the instance's runners above it. The
// instance scope sees every runner.
func (c *call) runnerVisible(rn *actionRunner, sc actionsScope, visible bool) bool {
	switch {
	case sc == (actionsScope{}):
		return true
	case rn.scope == sc:
		return true
	case !visible:
		return false
	case rn.scope == (actionsScope{}):
		return true
	}
	if sc.repoID != 0 {
		for _, r := range c.st.reposInOrder {
			if r.id == sc.repoID {
				return rn.scope.repoID == 0 && rn.scope.ownerID == r.owner.id
			}
		}
	}
	return false
}

func hListRunners(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		visible, _ := strconv.ParseBool(c.q.Get("visible"))
		var mine []*actionRunner
		for _, rn := range c.st.actions.runners {
			if c.runnerVisible(rn, sc, visible) {
				mine = append(mine, rn)
			}
		}
		// A bare array, as Forgejo 15 answers (Gitea 1.27 wraps it in
		// {"runners","total_count"}).
		out := []*wRunner{}
		for _, rn := range paginate(c, mine, pageLinked) {
			out = append(out, rn.wire())
		}
		c.json(http.StatusOK, out)
	}
}

// pathRunner finds {runner_id} among the runners sc may see (its own, its
// owner's and the instance's); it answers the 404 itself.
func (c *call) pathRunner(sc actionsScope) *actionRunner {
	id, _ := strconv.ParseInt(c.p["runner_id"], 10, 64)
	for _, rn := range c.st.actions.runners {
		if rn.id == id && c.runnerVisible(rn, sc, true) {
			return rn
		}
	}
	// Forgejo 15 writes "ID" here (Gitea 1.27 "id").
	c.fail(http.StatusNotFound, "runner with ID "+strconv.FormatInt(id, 10)+": resource does not exist")
	return nil
}

func hGetRunner(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		if rn := c.pathRunner(sc); rn != nil {
			c.json(http.StatusOK, rn.wire())
		}
	}
}

// hDeleteRunner removes a runner of the scope itself; one the scope only
// sees (the owner's, the instance's) is refused with 404.
func hDeleteRunner(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		rn := c.pathRunner(sc)
		if rn == nil {
			return
		}
		if sc != (actionsScope{}) && rn.scope != sc {
			c.fail(http.StatusNotFound, "No permission to delete this runner")
			return
		}
		a := &c.st.actions
		a.runners = slices.DeleteFunc(a.runners, func(x *actionRunner) bool { return x == rn })
		c.empty(http.StatusNoContent)
	}
}

func hRegisterRunner(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		var b struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Ephemeral   bool   `json:"ephemeral"`
		}
		if !c.decode(&b) {
			return
		}
		if b.Name == "" {
			c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
			return
		}
		id := c.st.id("runner")
		rn := &actionRunner{id: id, uuid: uuidFrom(randomHex(16)), name: b.Name, description: b.Description,
			ephemeral: b.Ephemeral, scope: sc, token: randomHex(20)}
		c.st.actions.runners = append(c.st.actions.runners, rn)
		c.json(http.StatusCreated, map[string]any{"id": rn.id, "uuid": rn.uuid, "token": rn.token})
	}
}

// hRegistrationToken answers the scope's active registration token, made
// on first use and then the same until it is replaced (Forgejo's UI
// resets it; the API only reads it).
func hRegistrationToken(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		a := &c.st.actions
		if a.regTokens == nil {
			a.regTokens = map[actionsScope]string{}
		}
		tok, ok := a.regTokens[sc]
		if !ok {
			tok = randomHex(20)
			a.regTokens[sc] = tok
		}
		c.json(http.StatusOK, map[string]string{"token": tok})
	}
}

// hSearchRunJobs lists the scope's jobs waiting for a runner or running: a
// user's or organization's are those of its repositories; with labels
// (comma-separated), only jobs whose runs-on labels all are among them (an
// empty labels= matches jobs without runs-on). Forgejo answers null, not
// [], when nothing matches.
func hSearchRunJobs(scope scopeFn) func(c *call) {
	return func(c *call) {
		sc, ok := scope(c)
		if !ok {
			return
		}
		_, filter := c.q["labels"]
		labels := strings.Split(strings.TrimSpace(c.q.Get("labels")), ",")
		var out []*wRunJob
		for _, run := range c.st.actions.runs {
			if sc.repoID != 0 && run.repo.id != sc.repoID || sc.ownerID != 0 && run.repo.owner.id != sc.ownerID {
				continue
			}
			for _, j := range run.jobs {
				if j.status != "waiting" && j.status != "running" {
					continue
				}
				if filter && !runsOnAll(j.runsOn, labels) {
					continue
				}
				out = append(out, j.wire())
			}
		}
		c.json(http.StatusOK, out)
	}
}

// runsOnAll is Forgejo's ItRunsOn: every label the job asks for is offered.
func runsOnAll(runsOn, labels []string) bool {
	if len(labels) == 1 && labels[0] == "" {
		return len(runsOn) == 0
	}
	if len(runsOn) == 0 {
		return false
	}
	for _, l := range runsOn {
		if !slices.Contains(labels, l) {
			return false
		}
	}
	return true
}

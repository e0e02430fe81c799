package forgejotest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// sampleParam is a value for a path parameter that no static segment of the
// table spells, so that the path means the operation it was built from.
func sampleParam(name string) string {
	switch name {
	case "filepath":
		return "dir/sub/file.txt" // several segments, as the client sends them
	case "diffType":
		return "diff"
	case "sha":
		return "0123456789abcdef0123456789abcdef01234567"
	case "index", "id", "attachment_id", "uid", "position":
		return "7"
	}
	return "p-" + strings.ToLower(name)
}

func samplePath(tmpl string) string {
	return paramRE.ReplaceAllStringFunc(tmpl, func(p string) string { return sampleParam(p[1 : len(p)-1]) })
}

// TestRoutingEveryOperation sends one request for each of the operations
// the client knows and checks that it reaches that operation: the fake's
// handler when it implements it, otherwise a 501 that names it, never a
// missing route.
func TestRoutingEveryOperation(t *testing.T) {
	srv := NewServer(t)
	ops := forgejo.Operations()
	if len(ops) != 506 {
		t.Errorf("the table has %d operations, want 506", len(ops))
	}
	impl := map[string]bool{}
	for _, id := range ImplementedOperations() {
		impl[id] = true
	}
	var implemented, stubbed int
	for _, op := range ops {
		path := "/api/v1" + samplePath(op.Path)
		if op.ID == "repoDownloadPullDiffOrPatch" {
			path = "/api/v1/repos/p-owner/p-repo/pulls/7.patch"
		}
		req, err := http.NewRequest(op.Method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+srv.Token())
		resp, err := srv.HTTPClient().Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", op.Method, path, err)
		}
		var body struct{ Message string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		reqs := srv.Requests()
		got := reqs[len(reqs)-1]
		if got.Operation != op.ID {
			t.Errorf("%s %s reached %q, want %s", op.Method, path, got.Operation, op.ID)
			continue
		}
		switch {
		case resp.StatusCode == http.StatusNotImplemented:
			stubbed++
			if impl[op.ID] {
				t.Errorf("%s is implemented but answered 501", op.ID)
			}
			if !strings.Contains(body.Message, op.ID) {
				t.Errorf("%s: 501 %q does not name it", op.ID, body.Message)
			}
		case !impl[op.ID]:
			t.Errorf("%s is not implemented but answered %d", op.ID, resp.StatusCode)
		case resp.StatusCode == http.StatusMethodNotAllowed, resp.Header.Get("Content-Type") == "text/plain; charset=utf-8" && resp.StatusCode == 404:
			t.Errorf("%s answered %d as if the route were missing", op.ID, resp.StatusCode)
		default:
			implemented++
		}
	}
	t.Logf("%d operations routed: %d to the fake's handler, %d to a 501 naming them", len(ops), implemented, stubbed)
}

// TestRouteTableMatchesOperations keeps the fake's route table in step with
// the client's: every route is an operation of the table, same method and
// path, listed once.
func TestRouteTableMatchesOperations(t *testing.T) {
	byID := map[string]forgejo.Operation{}
	for _, op := range forgejo.Operations() {
		byID[op.ID] = op
	}
	seen := map[string]bool{}
	for _, rs := range routeTable() {
		op, ok := byID[rs.op]
		switch {
		case !ok:
			t.Errorf("route %s is not an operation of the table", rs.op)
		case op.Method != rs.method || op.Path != rs.path:
			t.Errorf("route %s is %s %s, the table says %s %s", rs.op, rs.method, rs.path, op.Method, op.Path)
		case seen[rs.op]:
			t.Errorf("route %s is listed twice", rs.op)
		}
		seen[rs.op] = true
	}
}

// The three route shapes that broke before routing went by the table.
func TestRoutingOverlaps(t *testing.T) {
	srv := NewServer(t)
	for _, tc := range []struct{ method, path, op string }{
		{"GET", "/api/v1/repos/issues/search", "issueSearchIssues"},
		{"GET", "/api/v1/repos/a/b", "repoGet"},
		{"GET", "/api/v1/repos/a/b/contents/docs/deep/a.md", "repoGetContents"},
		{"GET", "/api/v1/repos/a/b/contents/docs%2Fa.md", "repoGetContents"},
		{"GET", "/api/v1/repos/a/b/contents", "repoGetContentsList"},
		{"GET", "/api/v1/repos/a/b/raw/docs/a.md", "repoGetRawFile"},
		{"GET", "/api/v1/repos/a/b/pulls/3.diff", "repoDownloadPullDiffOrPatch"},
		{"GET", "/api/v1/repos/a/b/pulls/3", "repoGetPullRequest"},
		{"GET", "/api/v1/repos/a/b/git/commits/abc.patch", "repoDownloadCommitDiffOrPatch"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := srv.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		reqs := srv.Requests()
		if got := reqs[len(reqs)-1].Operation; got != tc.op {
			t.Errorf("%s %s reached %q, want %s", tc.method, tc.path, got, tc.op)
		}
	}
}

// Every route whose path parameters have values below answers odd requests
// (no body, an empty object, JSON of the wrong shape, a body that is no
// JSON; path parameters that name nothing; the owner, another user, nobody)
// with a status, never a dropped connection.
func TestRoutesSurviveOddRequests(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	srv.AddIssues(owner, "demo", 2)
	srv.AddBranch(owner, "demo", "feature")
	srv.AddPull(owner, "demo", "feature", "main", "A change")
	params := map[string][]string{
		"owner": {owner, "nobody"}, "repo": {"demo", "none"}, "index": {"1", "3", "0", "x"}, "id": {"1", "99", "x"},
		"user": {owner, "nobody"}, "username": {owner, "nobody"}, "position": {"1", "-1", "x"}, "pageName": {"Home", "a-b.-", "%25zz"},
		"ref": {"heads/main", "nope"}, "sha": {"main", strings.Repeat("0", 40), "x"}, "filepath": {"README.md", "a/b", ""},
		"name": {"Default", "x"}, "branch": {"main", "nope"}, "base": {"main"}, "head": {"feature", "x:y"},
		"archive": {"main.zip", "main.tar.gz", "main.rar", "nope.zip"}, "diffType": {"diff", "patch", "x"},
	}
	bodies := []string{"", "{}", `{"title":1,"files":{},"time":"x"}`, "not json", "[]"}
	hc := srv.HTTPClient()
	tokens := []string{srv.Token(), srv.AddUser("bob"), ""}
	for _, rt := range routeTable() {
		tmpl := compileTemplate(rt.path)
		if slices.ContainsFunc(tmpl.segs, func(s tmplSeg) bool { return s.kind == segParam && len(params[s.name]) == 0 }) {
			continue
		}
		for variant := range 3 {
			path := ""
			for _, seg := range tmpl.segs {
				switch seg.kind {
				case segLiteral:
					path += "/" + seg.lit
				case segParam:
					vs := params[seg.name]
					if len(vs) == 0 {
						t.Fatalf("%s: no values for {%s}", rt.op, seg.name)
					}
					path += "/" + vs[variant%len(vs)]
				case segMixed:
					path += "/" + params["sha"][0] + "." + params["diffType"][variant%3]
				}
			}
			for i, body := range bodies {
				req, err := http.NewRequest(rt.method, srv.URL+"/api/v1"+path, strings.NewReader(body))
				if err != nil {
					t.Fatalf("%s %s: %v", rt.method, path, err)
				}
				if tok := tokens[(variant+i)%len(tokens)]; tok != "" {
					req.Header.Set("Authorization", "token "+tok)
				}
				resp, err := hc.Do(req)
				if err != nil {
					t.Fatalf("%s %s %q: %v", rt.method, path, body, err)
				}
				resp.Body.Close()
				if resp.StatusCode == 0 {
					t.Errorf("%s %s %q: no status", rt.method, path, body)
				}
			}
		}
	}
}

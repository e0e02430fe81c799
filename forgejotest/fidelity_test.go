package forgejotest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// The fidelity rows: places where forgejotest once answered otherwise than a
// real Forgejo 15.0.3 did to the same request, each kept as a test of what
// Forgejo answers. Rows that the contract suite observes live there, in its
// area files, as checks marked Forgejo-only where Gitea answers otherwise;
// these are the rest, and the ones whose Forgejo answer needs more setup
// than the contract scenario has.

// fidelityRow is one request and the answer a real Forgejo gave to it.
type fidelityRow struct {
	name string
	run  func(t *testing.T, srv *Server)
}

var fidelityRows = []fidelityRow{
	{"a commenter is not notified of replies, a reviewer is", func(t *testing.T, srv *Server) {
		me := srv.DefaultUser()
		bob := srv.AddUser("bob")
		srv.AddRepo(me, "proj")
		srv.AddIssue(me, "proj", IssueSpec{Title: "first"})
		r, body := raw(t, srv, "POST", "/api/v1/repos/"+me+"/proj/issues/1/comments", bob, map[string]string{"body": "hello"})
		wantStatus(t, r, body, http.StatusCreated)
		r, body = raw(t, srv, "POST", "/api/v1/repos/"+me+"/proj/issues/1/comments", srv.Token(), map[string]string{"body": "reply"})
		wantStatus(t, r, body, http.StatusCreated)
		r, body = raw(t, srv, "GET", "/api/v1/notifications", bob, nil)
		wantStatus(t, r, body, http.StatusOK)
		if got := len(decodeJSON[[]json.RawMessage](t, body)); got != 0 {
			t.Errorf("a commenter has %d threads, want 0 as on Forgejo: %s", got, body)
		}
		// A reviewer is a participant: the owner's comment on the pull
		// request reaches bob.
		srv.AddBranch(me, "proj", "feature")
		pr := srv.AddPull(me, "proj", "feature", "main", "a change")
		path := "/api/v1/repos/" + me + "/proj/pulls/" + strconv.FormatInt(pr, 10)
		r, body = raw(t, srv, "POST", path+"/reviews", bob, map[string]string{"event": "COMMENT", "body": "looks fine"})
		wantStatus(t, r, body, http.StatusOK)
		r, body = raw(t, srv, "POST", "/api/v1/repos/"+me+"/proj/issues/"+strconv.FormatInt(pr, 10)+"/comments", srv.Token(), map[string]string{"body": "thanks"})
		wantStatus(t, r, body, http.StatusCreated)
		r, body = raw(t, srv, "GET", "/api/v1/notifications", bob, nil)
		wantStatus(t, r, body, http.StatusOK)
		if got := len(decodeJSON[[]json.RawMessage](t, body)); got != 1 {
			t.Errorf("a reviewer has %d threads, want 1: %s", got, body)
		}
	}},
	{"purging a user deletes the issues they opened elsewhere; deleting keeps them by Ghost", func(t *testing.T, srv *Server) {
		me := srv.DefaultUser()
		srv.SetAdmin(me, true)
		srv.AddRepo(me, "proj")
		srv.AddUser("bob")
		srv.AddUser("carol")
		srv.AddIssue(me, "proj", IssueSpec{Title: "by bob", Author: "bob"})
		srv.AddIssue(me, "proj", IssueSpec{Title: "by carol", Author: "carol"})
		r, body := raw(t, srv, "DELETE", "/api/v1/admin/users/bob?purge=true", srv.Token(), nil)
		wantStatus(t, r, body, http.StatusNoContent)
		r, body = raw(t, srv, "GET", "/api/v1/repos/"+me+"/proj/issues/1", srv.Token(), nil)
		wantStatus(t, r, body, http.StatusNotFound)
		r, body = raw(t, srv, "DELETE", "/api/v1/admin/users/carol", srv.Token(), nil)
		wantStatus(t, r, body, http.StatusNoContent)
		r, body = raw(t, srv, "GET", "/api/v1/repos/"+me+"/proj/issues/2", srv.Token(), nil)
		wantStatus(t, r, body, http.StatusOK)
		if is := decodeJSON[struct {
			User struct {
				ID    int64
				Login string
			}
		}](t, body); is.User.ID != -1 || is.User.Login != "Ghost" {
			t.Errorf("a deleted user's issue: poster %+v, want Ghost (-1)", is.User)
		}
	}},
	{"notifications go to watchers and subscribers, not to who unsubscribed", func(t *testing.T, srv *Server) {
		me := srv.DefaultUser()
		bob, carol := srv.AddUser("bob"), srv.AddUser("carol")
		srv.AddRepo(me, "proj")
		srv.AddIssue(me, "proj", IssueSpec{Title: "first"})
		is := "/api/v1/repos/" + me + "/proj/issues/1"
		r, body := raw(t, srv, "PUT", is+"/subscriptions/carol", carol, nil)
		wantStatus(t, r, body, http.StatusCreated)
		r, body = raw(t, srv, "DELETE", is+"/subscriptions/"+me, srv.Token(), nil)
		wantStatus(t, r, body, http.StatusCreated)
		r, body = raw(t, srv, "POST", is+"/comments", bob, map[string]string{"body": "hello"})
		wantStatus(t, r, body, http.StatusCreated)
		for who, want := range map[string]int{carol: 1, srv.Token(): 0} {
			r, body = raw(t, srv, "GET", "/api/v1/notifications", who, nil)
			wantStatus(t, r, body, http.StatusOK)
			if got := len(decodeJSON[[]json.RawMessage](t, body)); got != want {
				t.Errorf("threads %d, want %d: %s", got, want, body)
			}
		}
	}},
}

func TestFidelity(t *testing.T) {
	for _, row := range fidelityRows {
		t.Run(row.name, func(t *testing.T) {
			row.run(t, NewServer(t))
		})
	}
}

// The diffstat of a commit's .patch is git format-patch's: the text below
// is what git 2.39 wrote for the same change, a long name cut, a graph
// scaled to the mail width.
func TestPatchDiffStatIsGits(t *testing.T) {
	long := "a/very/long/path/name/that/goes/on/and/on/for/quite/a/while/indeed/file.txt"
	var seq strings.Builder
	for i := 1; i <= 200; i++ {
		seq.WriteString(strconv.Itoa(i) + "\n")
	}
	got := diffStat(map[string]string{"b.txt": "x\ny\n", "old.txt": "gone\n"},
		map[string]string{"b.txt": "x\nz\n", long: seq.String()})
	const want = " .../and/on/for/quite/a/while/indeed/file.txt  | 200 ++++++++++++++++++\n" +
		" b.txt                                         |   2 +-\n" +
		" old.txt                                       |   1 -\n" +
		" 3 files changed, 201 insertions(+), 2 deletions(-)\n" +
		" create mode 100644 a/very/long/path/name/that/goes/on/and/on/for/quite/a/while/indeed/file.txt\n" +
		" delete mode 100644 old.txt\n"
	if got != want {
		t.Errorf("diffstat:\n%s\nwant (git format-patch):\n%s", got, want)
	}
}

// Issue search matches word by word: Forgejo 15 found "Issue 21" for
// "Issue 1" where Gitea 1.27 looks for the text whole.
func TestIssueSearchWords(t *testing.T) {
	is := &issue{title: "Issue 21", body: "body", comments: []*comment{{body: "a Reply here"}}}
	for q, want := range map[string]bool{
		"issue 1": true, "issue 3": false, "reply": true, "-reply": false, "issue -3": true,
		`"issue 21"`: true, `"issue 1"`: false, "+issue +body": true, "": true,
	} {
		if got := matchesKeyword(is, q); got != want {
			t.Errorf("matchesKeyword(%q) = %v, want %v", q, got, want)
		}
	}
}

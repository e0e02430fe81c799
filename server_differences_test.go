package forgejo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fixedServer is a client, without retries, on a tsReplyServer.
func fixedServer(t *testing.T, status int, ctype, body string) (*Client, func() []tsSeen) {
	t.Helper()
	srv, seen := tsReplyServer(t, status, ctype, body)
	c, err := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(RetryPolicy{MaxAttempts: 1, BaseDelay: 1, MaxDelay: 1}))
	if err != nil {
		t.Fatal(err)
	}
	return c, seen
}

const ldJSON = `application/ld+json; profile="https://www.w3.org/ns/activitystreams"`

// The instance actor as Forgejo 15.0.3 serves it: @context an array, and
// the actor's members.
const instanceActorBody = `{"@context":["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"],` +
	`"id":"http://127.0.0.1:3000/api/v1/activitypub/actor","type":"Application","preferredUsername":"ghost",` +
	`"inbox":"http://127.0.0.1:3000/api/v1/activitypub/actor/inbox","outbox":"http://127.0.0.1:3000/api/v1/activitypub/actor/outbox",` +
	`"publicKey":{"id":"http://127.0.0.1:3000/api/v1/activitypub/actor#main-key","owner":"http://127.0.0.1:3000/api/v1/activitypub/actor","publicKeyPem":"-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n"}}`

func TestActivityPubDecodesForgejoShapes(t *testing.T) {
	ctx := context.Background()
	person := `{"@context":["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"],"id":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2","type":"Person","preferredUsername":"forgego-user2","name":"forgego-user2","url":"http://127.0.0.1:3000/forgego-user2","inbox":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2/inbox","outbox":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2/outbox","icon":{"type":"Image","mediaType":"image/png","url":"http://127.0.0.1:3000/avatar/x"},"publicKey":{"id":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2#main-key","owner":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2","publicKeyPem":"PEM"}}`
	repo := `{"@context":["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"],"id":"http://127.0.0.1:3000/api/v1/activitypub/repository-id/1","type":"Repository","name":"demo","inbox":"http://127.0.0.1:3000/api/v1/activitypub/repository-id/1/inbox","outbox":"http://127.0.0.1:3000/api/v1/activitypub/repository-id/1/outbox"}`
	activity := `{"@context":["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"],"id":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2/activities/1/activity","type":"Create","actor":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2","published":"2026-12-01T10:00:00Z","to":["https://www.w3.org/ns/activitystreams#Public"],"object":{"type":"Note","content":"hi"}}`
	note := `{"@context":"https://www.w3.org/ns/activitystreams","id":"http://127.0.0.1:3000/api/v1/activitypub/user-id/2/activities/1","type":"Note","content":"created a repository","published":"2026-12-01T10:00:00Z"}`
	cases := []struct {
		name, body string
		call       func(c *Client) (*ActivityPub, *Response, error)
		check      func(t *testing.T, a *ActivityPub)
	}{
		{"instance actor", instanceActorBody, func(c *Client) (*ActivityPub, *Response, error) { return c.ActivityPub.GetInstanceActor(ctx) },
			func(t *testing.T, a *ActivityPub) {
				if a.Type != "Application" || a.PreferredUsername != "ghost" || !strings.HasSuffix(a.Inbox, "/actor/inbox") || !strings.HasSuffix(a.Outbox, "/actor/outbox") {
					t.Errorf("%+v", a)
				}
				if a.PublicKey == nil || !strings.HasSuffix(a.PublicKey.ID, "#main-key") || !strings.Contains(a.PublicKey.PublicKeyPem, "BEGIN PUBLIC KEY") {
					t.Errorf("publicKey %+v", a.PublicKey)
				}
			}},
		{"person", person, func(c *Client) (*ActivityPub, *Response, error) { return c.ActivityPub.GetPerson(ctx, 2) },
			func(t *testing.T, a *ActivityPub) {
				if a.Type != "Person" || a.URL == "" || a.PublicKey == nil || a.PublicKey.Owner != a.ID {
					t.Errorf("%+v", a)
				}
				if _, ok := a.Members["icon"]; !ok {
					t.Errorf("icon dropped: %v", a.Members)
				}
			}},
		{"repository", repo, func(c *Client) (*ActivityPub, *Response, error) { return c.ActivityPub.GetRepository(ctx, 1) },
			func(t *testing.T, a *ActivityPub) {
				if a.Type != "Repository" || a.Name != "demo" {
					t.Errorf("%+v", a)
				}
			}},
		{"activity", activity, func(c *Client) (*ActivityPub, *Response, error) { return c.ActivityPub.GetPersonActivity(ctx, 2, 1) },
			func(t *testing.T, a *ActivityPub) {
				if a.Type != "Create" || a.Published == "" || string(a.Members["actor"]) != `"http://127.0.0.1:3000/api/v1/activitypub/user-id/2"` {
					t.Errorf("%+v", a)
				}
				var obj struct{ Type, Content string }
				if err := json.Unmarshal(a.Members["object"], &obj); err != nil || obj.Type != "Note" {
					t.Errorf("object %s", a.Members["object"])
				}
			}},
		{"note, string context", note, func(c *Client) (*ActivityPub, *Response, error) {
			return c.ActivityPub.GetPersonActivityNote(ctx, 2, 1)
		},
			func(t *testing.T, a *ActivityPub) {
				if len(a.Context) != 1 || a.Type != "Note" || a.Content == "" {
					t.Errorf("%+v", a)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := fixedServer(t, 200, ldJSON, tc.body)
			a, _, err := tc.call(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Context) == 0 || a.Context[0] != "https://www.w3.org/ns/activitystreams" {
				t.Errorf("@context %v", a.Context)
			}
			if a.ID == "" || a.Members["id"] == nil || a.Members["@context"] == nil {
				t.Errorf("members %v", a.Members)
			}
			tc.check(t, a)
			// Encoding keeps every member.
			out, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			var back, orig map[string]any
			_ = json.Unmarshal(out, &back)
			_ = json.Unmarshal([]byte(tc.body), &orig)
			if len(back) != len(orig) {
				t.Errorf("re-encoded %d members, sent %d: %s", len(back), len(orig), out)
			}
		})
	}
}

func TestLDContextShapes(t *testing.T) {
	for body, want := range map[string]string{
		`"https://www.w3.org/ns/activitystreams"`:                                        "https://www.w3.org/ns/activitystreams",
		`["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"]`:       "https://www.w3.org/ns/activitystreams,https://w3id.org/security/v1",
		`["https://www.w3.org/ns/activitystreams",{"manuallyApprovesFollowers":"as:x"}]`: "https://www.w3.org/ns/activitystreams",
		`{"@vocab":"https://www.w3.org/ns/activitystreams"}`:                             "",
		`null`: "",
	} {
		var l LDContext
		if err := json.Unmarshal([]byte(body), &l); err != nil {
			t.Errorf("%s: %v", body, err)
			continue
		}
		if got := strings.Join(l, ","); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	if err := json.Unmarshal([]byte(`42`), new(LDContext)); err == nil {
		t.Error("a number decoded as a context")
	}
}

func TestActivityPubOutboxesAreGET(t *testing.T) {
	ctx := context.Background()
	const outbox = `{"@context":"https://www.w3.org/ns/activitystreams","type":"OrderedCollection","totalItems":0,"orderedItems":[]}`
	c, seen := fixedServer(t, 200, ldJSON, outbox)
	v, _, err := c.ActivityPub.GetInstanceOutbox(ctx)
	if err != nil || v["type"] != "OrderedCollection" {
		t.Fatalf("%v %v", v, err)
	}
	if _, _, err := c.ActivityPub.GetRepositoryOutbox(ctx, 1); err != nil {
		t.Fatal(err)
	}
	got := seen()
	if len(got) != 2 || got[0].method != "GET" || got[0].path != "/api/v1/activitypub/actor/outbox" ||
		got[1].method != "GET" || got[1].path != "/api/v1/activitypub/repository-id/1/outbox" {
		t.Errorf("requests %+v", got)
	}
	if opActivitypubInstanceActorOutbox.Method != "GET" || opActivitypubRepositoryOutbox.Method != "GET" {
		t.Error("the operations table does not say GET")
	}
}

func TestActivityPubInboxesCarryTheActivity(t *testing.T) {
	ctx := context.Background()
	c, seen := fixedServer(t, 202, "", "")
	follow := map[string]any{"@context": "https://www.w3.org/ns/activitystreams", "type": "Follow",
		"actor": "http://127.0.0.1:3000/api/v1/activitypub/user-id/1", "object": "http://127.0.0.1:3000/api/v1/activitypub/user-id/2"}
	if _, err := c.ActivityPub.SendToPersonInbox(ctx, 2, follow); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ActivityPub.SendToInstanceInbox(ctx, ActivityPub{Type: "Like", ID: "x"}); err != nil {
		t.Fatal(err)
	}
	got := seen()
	if len(got) != 2 || got[0].method != "POST" || got[0].path != "/api/v1/activitypub/user-id/2/inbox" ||
		got[0].ctype != "application/json" || !strings.Contains(got[0].body, `"type":"Follow"`) {
		t.Errorf("person inbox %+v", got)
	}
	if len(got) == 2 && (got[1].path != "/api/v1/activitypub/actor/inbox" || !strings.Contains(got[1].body, `"type":"Like"`)) {
		t.Errorf("instance inbox %+v", got[1])
	}
	var ve *ValidationError
	if _, err := c.ActivityPub.SendToPersonInbox(ctx, 2, nil); !errors.As(err, &ve) {
		t.Errorf("nil activity: %v", err)
	}
	if _, err := c.ActivityPub.SendToPersonInbox(ctx, 2, []string{"x"}); !errors.As(err, &ve) {
		t.Errorf("array activity: %v", err)
	}
	if n := len(seen()); n != 2 {
		t.Errorf("%d requests; refused activities were sent", n)
	}
}

func TestErrStaleFile(t *testing.T) {
	ctx := context.Background()
	const msg = `{"message":"sha does not match [given: 0000, expected: 1111]","url":"x"}`
	for _, tc := range []struct {
		name   string
		status int
		body   string
		del    bool
		want   bool
	}{
		{"Forgejo update 409", 409, msg, false, true},
		{"Gitea update 422", 422, msg, false, true},
		{"Forgejo delete 400", 400, msg, true, true},
		{"Gitea delete 422", 422, msg, true, true},
		{"delete 409", 409, msg, true, true},
		{"other 422", 422, `{"message":"[Content]: Required"}`, false, false},
		{"other 400", 400, `{"message":"bad branch"}`, true, false},
		{"404", 404, `{"message":"not found"}`, false, false},
	} {
		c, _ := fixedServer(t, tc.status, "application/json", tc.body)
		var err error
		if tc.del {
			_, _, err = c.Repos.DeleteFile(ctx, "o", "r", "a.txt", DeleteFileRequest{SHA: "0000"})
		} else {
			_, _, err = c.Repos.UpdateFile(ctx, "o", "r", "a.txt", UpdateFileRequest{SHA: "0000"})
		}
		if got := errors.Is(err, ErrStaleFile); got != tc.want {
			t.Errorf("%s: errors.Is(ErrStaleFile) = %v (%v)", tc.name, got, err)
		}
		if StatusCode(err) != tc.status {
			t.Errorf("%s: status %d", tc.name, StatusCode(err))
		}
	}
	// A 409 elsewhere is not a stale file.
	c, _ := fixedServer(t, 409, "application/json", msg)
	if _, _, err := c.Repos.CreateFile(ctx, "o", "r", "a.txt", CreateFileRequest{}); errors.Is(err, ErrStaleFile) {
		t.Errorf("CreateFile 409 matched ErrStaleFile")
	}
}

func TestErrNoSigningKey(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(c *Client) (string, *Response, error){
		"Misc.GetSigningKey":    func(c *Client) (string, *Response, error) { return c.Misc.GetSigningKey(ctx) },
		"Misc.GetSSHSigningKey": func(c *Client) (string, *Response, error) { return c.Misc.GetSSHSigningKey(ctx) },
		"Repos.GetSigningKey":   func(c *Client) (string, *Response, error) { return c.Repos.GetSigningKey(ctx, "o", "r") },
	}
	for name, call := range calls {
		// Forgejo: an empty 200, no Content-Type.
		c, _ := fixedServer(t, 200, "", "")
		if k, resp, err := call(c); k != "" || !errors.Is(err, ErrNoSigningKey) || resp == nil || resp.StatusCode != 200 {
			t.Errorf("%s, empty 200: %q %v", name, k, err)
		}
		// Gitea: a 404.
		c, _ = fixedServer(t, 404, "application/json", `{"message":"not found"}`)
		if _, _, err := call(c); !errors.Is(err, ErrNoSigningKey) || !errors.Is(err, ErrNotFound) {
			t.Errorf("%s, 404: %v", name, err)
		}
		// A key.
		c, _ = fixedServer(t, 200, "text/plain", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n")
		if k, _, err := call(c); err != nil || !strings.Contains(k, "BEGIN") {
			t.Errorf("%s, a key: %q %v", name, k, err)
		}
	}
	// A 404 from another operation is not "no key".
	c, _ := fixedServer(t, 404, "application/json", `{"message":"not found"}`)
	if _, _, err := c.Repos.Get(ctx, "o", "r"); errors.Is(err, ErrNoSigningKey) {
		t.Error("Repos.Get 404 matched ErrNoSigningKey")
	}
}

func TestListMilestonesSendsStateOpen(t *testing.T) {
	ctx := context.Background()
	c, seen := fixedServer(t, 200, "application/json", `[]`)
	if _, _, err := c.Issues.ListMilestones(ctx, "o", "r", nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Issues.ListMilestones(ctx, "o", "r", &IssueListMilestonesOptions{State: "all"}); err != nil {
		t.Fatal(err)
	}
	got := seen()
	if !strings.Contains(got[0].query, "state=open") || !strings.Contains(got[1].query, "state=all") || strings.Contains(got[1].query, "state=open") {
		t.Errorf("queries %q, %q", got[0].query, got[1].query)
	}
}

func TestActionRunEventName(t *testing.T) {
	var r ActionRun
	// Forgejo 15.0.3's dispatched run.
	if err := json.Unmarshal([]byte(`{"id":3,"event":"","trigger_event":"workflow_dispatch","status":"waiting"}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.EventName() != "workflow_dispatch" {
		t.Errorf("EventName %q", r.EventName())
	}
	r = ActionRun{Event: "push"}
	if r.EventName() != "push" {
		t.Errorf("EventName %q", r.EventName())
	}
	if (*ActionRun)(nil).EventName() != "" {
		t.Error("nil run")
	}
}

func TestDispatchWorkflowReadsTheRun(t *testing.T) {
	ctx := context.Background()
	c, _ := fixedServer(t, 201, "application/json", `{"id":3,"run_number":1,"jobs":["hello"]}`)
	run, _, err := c.Actions.DispatchWorkflow(ctx, "o", "r", "ci.yml", DispatchWorkflowRequest{Ref: "main"})
	if err != nil || run == nil || run.ID != 3 || run.RunNumber != 1 || len(run.Jobs) != 1 {
		t.Fatalf("%+v %v", run, err)
	}
	c, _ = fixedServer(t, 204, "", "")
	run, _, err = c.Actions.DispatchWorkflow(ctx, "o", "r", "ci.yml", DispatchWorkflowRequest{Ref: "main"})
	if err != nil || run != nil {
		t.Fatalf("204: %+v %v", run, err)
	}
}

package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// This file holds what the spec gets wrong about ActivityPub (measured on
// Forgejo 15.0.3, docs/HAZARDS.md §22): the object model, which the spec
// reduces to a string @context, and the inboxes, which the spec gives no
// body.
//
// Forgejo answers these routes with application/ld+json. With the default
// [federation] SIGNATURE_ENFORCED = true, every route but the instance
// actor and its outbox wants an HTTP signature, which this client does not
// produce: the instance answers 400 "request signature verification
// failed". Unsigned, the client can read the instance actor
// (GetInstanceActor) and its outbox (GetInstanceOutbox); the persons,
// repositories, activities, feeds and inboxes need an instance with
// SIGNATURE_ENFORCED = false. All of them answer 404 unless federation is
// enabled.

// ActivityPub is an ActivityStreams object as Forgejo serves it: the
// instance actor (an Application), a Person, a Repository, an activity or
// its note. The common members are fields; Members keeps every member as
// sent, those included, so nothing the server says is lost. A member the
// object lacks decodes to the zero value.
type ActivityPub struct {
	// Context is the JSON-LD @context: a string or an array on the wire.
	Context LDContext `json:"@context"`
	// ID is the object's IRI; Type its ActivityStreams type ("Person",
	// "Application", "Repository", "Create", "Note", ...).
	ID   string `json:"id"`
	Type string `json:"type"`
	// Name, PreferredUsername and Summary describe an actor.
	Name              string `json:"name"`
	PreferredUsername string `json:"preferredUsername"`
	Summary           string `json:"summary"`
	// URL is the object's HTML page.
	URL string `json:"url"`
	// Inbox, Outbox, Followers and Following are an actor's collections.
	Inbox     string `json:"inbox"`
	Outbox    string `json:"outbox"`
	Followers string `json:"followers"`
	Following string `json:"following"`
	// PublicKey is the key that verifies the actor's HTTP signatures.
	PublicKey *ActivityPubKey `json:"publicKey"`
	// Content and Published belong to notes and activities.
	Content   string `json:"content"`
	Published string `json:"published"`
	// Members holds every member of the object as sent, the ones above
	// included (actor, object, to, icon, ...). Encoding an ActivityPub
	// writes Members, with the fields above written over them.
	Members map[string]json.RawMessage `json:"-"`
}

// ActivityPubKey is an actor's public key.
type ActivityPubKey struct {
	ID           string `json:"id"`
	Owner        string `json:"owner"`
	PublicKeyPem string `json:"publicKeyPem"`
}

// activityPubFields is ActivityPub without its methods.
type activityPubFields ActivityPub

// UnmarshalJSON decodes the known members and keeps them all in Members.
func (a *ActivityPub) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	var f activityPubFields
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	f.Members = members
	*a = ActivityPub(f)
	return nil
}

// MarshalJSON writes Members, then the set fields over them.
func (a ActivityPub) MarshalJSON() ([]byte, error) {
	out := make(map[string]json.RawMessage, len(a.Members)+4)
	for k, v := range a.Members {
		out[k] = v
	}
	set := func(name string, v any, isSet bool) error {
		if !isSet {
			return nil
		}
		raw, err := json.Marshal(v)
		if err == nil {
			out[name] = raw
		}
		return err
	}
	errs := []error{
		set("@context", a.Context, len(a.Context) > 0),
		set("id", a.ID, a.ID != ""), set("type", a.Type, a.Type != ""),
		set("name", a.Name, a.Name != ""), set("preferredUsername", a.PreferredUsername, a.PreferredUsername != ""),
		set("summary", a.Summary, a.Summary != ""), set("url", a.URL, a.URL != ""),
		set("inbox", a.Inbox, a.Inbox != ""), set("outbox", a.Outbox, a.Outbox != ""),
		set("followers", a.Followers, a.Followers != ""), set("following", a.Following, a.Following != ""),
		set("publicKey", a.PublicKey, a.PublicKey != nil),
		set("content", a.Content, a.Content != ""), set("published", a.Published, a.Published != ""),
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// LDContext is a JSON-LD @context: the spec says a string, Forgejo sends an
// array (["https://www.w3.org/ns/activitystreams",
// "https://w3id.org/security/v1"]). Both decode to the list of its IRIs;
// an embedded context object is skipped here (ActivityPub.Members keeps
// it). It encodes as a string when it holds one IRI.
type LDContext []string

// UnmarshalJSON accepts a string, null, or an array of strings and
// objects.
func (l *LDContext) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*l = nil
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*l = LDContext{s}
		return nil
	case len(data) > 0 && data[0] == '{':
		*l = nil
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return err
	}
	out := LDContext{}
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, s)
		}
	}
	*l = out
	return nil
}

// MarshalJSON writes one IRI as a string, several as an array.
func (l LDContext) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal([]string(l))
}

// SendToInstanceInbox delivers an activity (any JSON object: a map, a
// [ForgeLikeRequest], an [ActivityPub]) to the instance actor's inbox. The spec
// gives this route no body; Forgejo refuses an empty one (422 "Empty
// Content-Type"). The instance wants an HTTP signature, which this client
// does not produce, unless its federation setting SIGNATURE_ENFORCED is false;
// unsigned, it answers 400 "request signature verification failed".
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /activitypub/actor/inbox (activitypubInstanceActorInbox). Token scope:
// write:activitypub. Retry: RetryNever (delivers an activity to the inbox; a
// repeat delivers it again).
func (s *ActivityPubService) SendToInstanceInbox(ctx context.Context, activity any, opts ...RequestOption) (*Response, error) {
	req := newRequest(&opActivitypubInstanceActorInbox)
	req.activityBody(activity)
	req.with(opts)
	req.result = resultNone
	return s.client.call(ctx, req, nil)
}

// SendToPersonInbox delivers an activity (any JSON object) to a user's
// inbox. The spec gives this route no body; Forgejo refuses an empty one
// (422 "Empty Content-Type"). The instance wants an HTTP signature unless
// SIGNATURE_ENFORCED is false.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /activitypub/user-id/{user-id}/inbox (activitypubPersonInbox). Token
// scope: write:activitypub. Retry: RetryNever (delivers an activity to the
// inbox; a repeat delivers it again).
func (s *ActivityPubService) SendToPersonInbox(ctx context.Context, userID int64, activity any, opts ...RequestOption) (*Response, error) {
	req := newRequest(&opActivitypubPersonInbox, num("user-id", userID))
	req.activityBody(activity)
	req.with(opts)
	req.result = resultNone
	return s.client.call(ctx, req, nil)
}

// activityBody sets a JSON body that must be a JSON object.
func (r *request) activityBody(activity any) {
	if r.err != nil {
		return
	}
	if activity == nil {
		r.err = &ValidationError{Field: "activity", Message: "must not be nil: an inbox takes an activity"}
		return
	}
	r.jsonBody(activity)
	if r.err == nil && (len(r.body) == 0 || r.body[0] != '{') {
		r.body, r.bodyType = nil, ""
		r.err = &ValidationError{Field: "activity", Message: "must encode as a JSON object"}
	}
}

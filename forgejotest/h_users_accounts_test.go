package forgejotest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// call sends one request to srv with the given Authorization header value
// ("" for none) and returns the status and body, without following
// redirects.
func rawCall(t *testing.T, srv *Server, method, path, authz string, body any) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv.URL+"/api/v1"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := *srv.HTTPClient()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out
}

func message(b []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(b, &e)
	return e.Message
}

func basicAuth(login, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))
}

// wireKey builds an authorized_keys line from SSH wire-format fields.
func wireKey(fields ...[]byte) string {
	var blob []byte
	for _, f := range fields {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(f)))
		blob = append(blob, f...)
	}
	return string(fields[0]) + " " + base64.StdEncoding.EncodeToString(blob)
}

func modulus(bits int) []byte {
	n := bytes.Repeat([]byte{0x5a}, bits/8)
	n[0] = 0x80 | n[0]
	return n
}

// Keys are checked as Forgejo's CheckPublicKeyString does with its default
// minimum sizes: RSA needs 3071 bits, DSA is not allowed.
func TestSSHKeyChecks(t *testing.T) {
	point := append([]byte{4}, bytes.Repeat([]byte{1}, 64)...)
	for _, tc := range []struct {
		name, key, wantErr string
	}{
		{"rsa 3072", wireKey([]byte("ssh-rsa"), []byte{1, 0, 1}, modulus(3072)), ""},
		{"rsa 2048", wireKey([]byte("ssh-rsa"), []byte{1, 0, 1}, modulus(2048)), "key length is not enough: got 2048, needs 3071"},
		{"ecdsa p256", wireKey([]byte("ecdsa-sha2-nistp256"), []byte("nistp256"), point), ""},
		{"dsa", wireKey([]byte("ssh-dss"), []byte{1}, []byte{2}, []byte{3}, []byte{4}), "key is not allowed: dsa"},
		{"ed25519 too short", wireKey([]byte("ssh-ed25519"), []byte{1, 2, 3}), "invalid ssh public key: ssh: no key found"},
		{"two lines", "ssh-ed25519 AAAA\nssh-ed25519 AAAA", "key contains new line"},
		{"tiny blob", "ssh-ed25519 AAA=", "extractTypeFromBase64Key: invalid key format: %!w(<nil>)"},
	} {
		content, fp, msg := checkSSHKey(tc.key)
		if msg != tc.wantErr {
			t.Errorf("%s: error %q, want %q", tc.name, msg, tc.wantErr)
		}
		if tc.wantErr == "" && (!strings.HasPrefix(fp, "SHA256:") || content != tc.key) {
			t.Errorf("%s: %q %q", tc.name, content, fp)
		}
	}
}

func TestNormalizeScopes(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
		err  string
	}{
		{[]string{"read:user", "write:user"}, []string{"write:user"}, ""},
		{[]string{"read:user,write:issue", "public-only"}, []string{"public-only", "write:issue", "read:user"}, ""},
		{[]string{"all", "read:user"}, []string{"all"}, ""},
		{[]string{"write:activitypub", "write:admin", "write:misc", "write:notification", "write:organization",
			"write:package", "write:issue", "write:repository", "write:user"}, []string{"all"}, ""},
		{[]string{"sudo"}, nil, ""},
		{[]string{"read:everything"}, nil, "invalid access token scope: read:everything"},
		{nil, nil, ""},
	} {
		got, err := normalizeScopes(tc.in)
		if err != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v %q, want %v %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// A password made by the administrator signs in with Basic auth, which is
// what mints tokens; a minted token authenticates, carries its scopes
// (enforced on this area's routes) and stops working once deleted.
func TestTokensAndScopes(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	ctx := context.Background()
	admin := srv.Client()
	f := false
	if _, _, err := admin.Admin.CreateUser(ctx, forgejo.CreateUserRequest{Username: "bot", Email: "bot@example.org",
		Password: "bot-Passw0rd", MustChangePassword: &f}); err != nil {
		t.Fatal(err)
	}
	st, _, body := rawCall(t, srv, "GET", "/user", basicAuth("bot", "wrong"), nil)
	if st != 401 {
		t.Errorf("wrong password: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "POST", "/users/bot/tokens", basicAuth("bot", "bot-Passw0rd"), map[string]any{"name": "ro", "scopes": []string{"read:user"}})
	var tok wAccessToken
	if err := json.Unmarshal(body, &tok); st != 201 || err != nil || len(tok.SHA1) != 40 {
		t.Fatalf("create: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/user", "token "+tok.SHA1, nil)
	if st != 200 || !strings.Contains(string(body), `"login":"bot"`) {
		t.Errorf("the token: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "POST", "/user/keys", "token "+tok.SHA1, map[string]any{"title": "x", "key": "ssh-ed25519 AAAA"})
	if st != 403 || message(body) != "token does not have at least one of required scope(s): [write:user]" {
		t.Errorf("write with read:user: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/users/bot/tokens", "token "+tok.SHA1, nil)
	if st != 200 || !strings.Contains(string(body), `"name":"ro"`) || strings.Contains(string(body), tok.SHA1) {
		t.Errorf("list with the token (Forgejo 15 allows it): %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "DELETE", "/users/bot/tokens/ro", basicAuth("bot", "bot-Passw0rd"), nil)
	if st != 204 {
		t.Errorf("delete: %d %s", st, body)
	}
	if st, _, _ = rawCall(t, srv, "GET", "/user", "token "+tok.SHA1, nil); st != 401 {
		t.Errorf("deleted token: %d", st)
	}
	// The administrator's token routes (Forgejo 16) need no password.
	at, _, err := admin.Admin.CreateUserToken(ctx, "bot", forgejo.CreateAccessTokenRequest{Name: "by-admin", Scopes: []string{"all"}})
	if err != nil || !slices.Equal(at.Scopes, []string{"all"}) {
		t.Fatalf("admin token: %v %+v", err, at)
	}
	if _, err := admin.Admin.DeleteUserToken(ctx, "bot", "by-admin"); err != nil {
		t.Fatal(err)
	}
	// Deleting the account kills its tokens.
	st, _, body = rawCall(t, srv, "POST", "/users/bot/tokens", basicAuth("bot", "bot-Passw0rd"), map[string]any{"name": "x", "scopes": []string{"all"}})
	_ = json.Unmarshal(body, &tok)
	if _, err := admin.Admin.DeleteUser(ctx, "bot", nil); err != nil {
		t.Fatal(err)
	}
	if st2, _, _ := rawCall(t, srv, "GET", "/user", "token "+tok.SHA1, nil); st != 201 || st2 != 401 {
		t.Errorf("token of a deleted user: %d then %d", st, st2)
	}
}

// Every administration route refuses a non-administrator with Forgejo's
// 403, before reading anything.
func TestAdminRoutesRefuseNonAdmins(t *testing.T) {
	srv := NewServer(t)
	tok := srv.AddUser("mallory")
	n := 0
	for _, rt := range routeTable() {
		if !strings.HasPrefix(rt.path, "/admin/") {
			continue
		}
		n++
		path := strings.NewReplacer("{username}", "mallory", "{id}", "1", "{token}", "1", "{task}", "x").Replace(rt.path)
		st, _, body := rawCall(t, srv, rt.method, path, "token "+tok, map[string]any{})
		if st != 403 || message(body) != "user should be the site admin" {
			t.Errorf("%s %s as a non-admin: %d %s", rt.method, path, st, body)
		}
	}
	if n < 20 {
		t.Errorf("only %d admin routes", n)
	}
}

// A renamed account's old name redirects (307) to the new one until the
// name is taken again; deleting the account drops its redirects.
func TestRenameRedirects(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	srv.AddRepo("alice", "notes")
	admin := "token " + srv.Token()
	if st, _, body := rawCall(t, srv, "POST", "/admin/users/alice/rename", admin, map[string]any{"new_username": "alicia"}); st != 204 {
		t.Fatalf("rename: %d %s", st, body)
	}
	st, h, _ := rawCall(t, srv, "GET", "/repos/alice/notes?x=1", admin, nil)
	if st != 307 || h.Get("Location") != "/api/v1/repos/alicia/notes?x=1" {
		t.Errorf("old name: %d %q", st, h.Get("Location"))
	}
	if st, _, _ := rawCall(t, srv, "GET", "/repos/alicia/notes", admin, nil); st != 200 {
		t.Errorf("new name: %d", st)
	}
	srv.AddUser("alice") // takes the name back
	if st, _, _ := rawCall(t, srv, "GET", "/users/alice", admin, nil); st != 200 {
		t.Errorf("name taken again: %d", st)
	}
	st, _, body := rawCall(t, srv, "POST", "/admin/users/alicia/rename", admin, map[string]any{"new_username": "admin"})
	if st != 422 || message(body) != `The username "admin" is reserved.` {
		t.Errorf("reserved name: %d %s", st, body)
	}
}

// Blocking (Forgejo only) undoes follows both ways; an organization's
// owners block for it, its other members may not.
func TestBlocking(t *testing.T) {
	srv := NewServer(t)
	ctx := context.Background()
	bob := srv.Client(forgejo.WithToken(srv.AddUser("bob")))
	me := srv.Client()
	if _, err := bob.Users.Follow(ctx, srv.DefaultUser()); err != nil {
		t.Fatal(err)
	}
	if _, err := me.Users.Follow(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := me.Users.Block(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if f, _, _ := bob.Users.IsFollowedByMe(ctx, srv.DefaultUser()); f {
		t.Error("bob still follows after the block")
	}
	if f, _, _ := me.Users.IsFollowedByMe(ctx, "bob"); f {
		t.Error("still following bob after the block")
	}
	bl, _, err := me.Users.ListBlockedUsers(ctx, nil)
	if err != nil || len(bl) != 1 || bl[0].BlockID == 0 {
		t.Errorf("blocked: %v %+v", err, bl)
	}
	if _, err := me.Users.Unblock(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if bl, _, _ := me.Users.ListBlockedUsers(ctx, nil); len(bl) != 0 {
		t.Errorf("after unblocking: %+v", bl)
	}
	if _, _, err := me.Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	if _, err := me.Orgs.BlockUser(ctx, "acme", "bob"); err != nil {
		t.Fatal(err)
	}
	_, err = bob.Orgs.UnblockUser(ctx, "acme", "bob")
	var ae *forgejo.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 403 {
		t.Errorf("a non-owner unblocks for the org: %v", err)
	}
	if bl, _, _ := me.Orgs.ListBlockedUsers(ctx, "acme", nil); len(bl) != 1 {
		t.Errorf("org blocks: %+v", bl)
	}
}

// armoredKey builds an armored OpenPGP v4 public key: an EdDSA primary key
// with one user id, a self-signature carrying a key lifetime (its
// signature bytes are not real: the fake does not verify them) and an
// ECDH subkey.
func armoredKey(uid string, seed byte) string {
	created := []byte{0x66, 0, 0, 0}
	point := append([]byte{0x01, 0x07, 0x40}, bytes.Repeat([]byte{seed}, 32)...)
	primary := slices.Concat([]byte{4}, created, []byte{22, 9, 0x2b, 6, 1, 4, 1, 0xda, 0x47, 0x0f, 1}, point)
	sub := slices.Concat([]byte{4}, created, []byte{18, 10, 0x2b, 6, 1, 4, 1, 0x97, 0x55, 1, 5, 1}, point, []byte{3, 1, 8, 7})
	sig := []byte{4, 0x13, 22, 8, 0, 6, 5, 9, 0, 0, 0x0e, 0x10, 0, 0, 0xab, 0xcd, 0, 8, 1, 0, 8, 1}
	packet := func(tag byte, body []byte) []byte { return append([]byte{0xc0 | tag, byte(len(body))}, body...) }
	data := slices.Concat(packet(6, primary), packet(13, []byte(uid)), packet(2, sig), packet(14, sub))
	return "-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: test\n\n" + base64.StdEncoding.EncodeToString(data) +
		"\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n"
}

// GPG keys are read from their packets: one is added when one of its
// addresses is the account's, and then listed, read and deleted.
func TestGPGKeys(t *testing.T) {
	srv := NewServer(t)
	me := "token " + srv.Token()
	bob := "token " + srv.AddUser("bob")
	st, _, body := rawCall(t, srv, "POST", "/user/gpg_keys", me, map[string]any{"armored_public_key": armoredKey("Someone <someone@example.org>", 1)})
	if st != 404 || !strings.HasPrefix(message(body), "None of the emails attached to the GPG key could be found.") {
		t.Errorf("a key of another address: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "POST", "/user/gpg_keys", me, map[string]any{"armored_public_key": "mQENBF"})
	if st != 422 || message(body) != "failed to parse gpg key openpgp: invalid argument: no armored data found" {
		t.Errorf("not armored: %d %s", st, body)
	}
	key := armoredKey("Me <"+srv.DefaultUser()+"@example.com>", 2)
	st, _, body = rawCall(t, srv, "POST", "/user/gpg_keys", me, map[string]any{"armored_public_key": key})
	var k wGPGKey
	if err := json.Unmarshal(body, &k); st != 201 || err != nil || len(k.KeyID) != 16 || len(k.Emails) != 1 || !k.Emails[0].Verified || !k.Verified ||
		!k.CanSign || k.CanEncryptComms || len(k.Subkeys) != 1 || k.Subkeys[0].PrimaryKeyID != k.KeyID || !k.Subkeys[0].CanEncryptComms ||
		k.Subkeys[0].CanSign || k.ExpiresAt != "2024-03-24T11:27:12Z" || k.CreatedAt != "2024-03-24T10:27:12Z" {
		t.Fatalf("add a key: %d %s", st, body)
	}
	if st, _, body = rawCall(t, srv, "POST", "/user/gpg_keys", me, map[string]any{"armored_public_key": key}); st != 422 || message(body) != "A key with the same id already exists" {
		t.Errorf("the same key again: %d %s", st, body)
	}
	id := strconv.FormatInt(k.ID, 10)
	if st, _, _ = rawCall(t, srv, "GET", "/user/gpg_keys/"+id, bob, nil); st != 404 {
		t.Errorf("bob gets it: %d", st)
	}
	if st, _, _ = rawCall(t, srv, "DELETE", "/user/gpg_keys/"+id, bob, nil); st != 403 {
		t.Errorf("bob deletes it: %d", st)
	}
	st, _, body = rawCall(t, srv, "POST", "/user/gpg_key_verify", me, map[string]any{"key_id": k.KeyID, "armored_signature": "x"})
	if st != 422 || !strings.HasPrefix(message(body), "The provided GPG key, signature and token do not match") {
		t.Errorf("verify: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/users/"+srv.DefaultUser()+"/gpg_keys", bob, nil)
	if st != 200 || !strings.Contains(string(body), k.KeyID) {
		t.Errorf("list: %d %s", st, body)
	}
	if st, _, _ = rawCall(t, srv, "DELETE", "/user/gpg_keys/"+id, me, nil); st != 204 {
		t.Errorf("delete: %d", st)
	}
	if st, _, body = rawCall(t, srv, "GET", "/user/gpg_keys", me, nil); st != 200 || string(body) != "[]" {
		t.Errorf("after delete: %d %s", st, body)
	}
}

// A key whose id begins with 0 cannot be verified: the server strips the
// zeros from the id it is sent and finds no key by what is left, which is
// a 500, however the request spells the id.
func TestGPGKeyVerifyLeadingZero(t *testing.T) {
	srv := NewServer(t)
	bob := "token " + srv.AddUser("bob")
	var k wGPGKey
	for seed := 0; seed < 256 && !strings.HasPrefix(k.KeyID, "0"); seed++ {
		if k.ID != 0 {
			if st, _, _ := rawCall(t, srv, "DELETE", "/user/gpg_keys/"+strconv.FormatInt(k.ID, 10), bob, nil); st != 204 {
				t.Fatalf("delete key %s: %d", k.KeyID, st)
			}
		}
		st, _, body := rawCall(t, srv, "POST", "/user/gpg_keys", bob, map[string]any{"armored_public_key": armoredKey("Bob <bob@example.com>", byte(seed))})
		if err := json.Unmarshal(body, &k); st != 201 || err != nil {
			t.Fatalf("add key of seed %d: %d %s", seed, st, body)
		}
	}
	if !strings.HasPrefix(k.KeyID, "0") {
		t.Fatal("no seed gives a key id that begins with 0")
	}
	for _, id := range []string{k.KeyID, strings.TrimLeft(k.KeyID, "0")} {
		st, _, body := rawCall(t, srv, "POST", "/user/gpg_key_verify", bob, map[string]any{"key_id": id, "armored_signature": "x"})
		if st != 500 || message(body) != "" {
			t.Errorf("verify %s: %d %s", id, st, body)
		}
	}
}

// A 500 of UploadAvatar tells only administrators why; an avatar changes
// the URL every view of the account shows.
func TestAvatars(t *testing.T) {
	srv := NewServer(t)
	tok := srv.AddUser("bob")
	junk := base64.StdEncoding.EncodeToString([]byte("not an image"))
	st, _, body := rawCall(t, srv, "POST", "/user/avatar", "token "+tok, map[string]any{"image": junk})
	if st != 500 || message(body) != "" {
		t.Errorf("junk avatar as bob: %d %s", st, body)
	}
	srv.SetAdmin(srv.DefaultUser(), true)
	st, _, body = rawCall(t, srv, "POST", "/user/avatar", "token "+srv.Token(), map[string]any{"image": junk})
	if st != 500 || message(body) != "UploadAvatar: image.DecodeConfig: image: unknown format" {
		t.Errorf("junk avatar as an admin: %d %s", st, body)
	}
	ctx := context.Background()
	bob := srv.Client(forgejo.WithToken(tok))
	before, _, _ := srv.Client().Users.Get(ctx, "bob")
	if _, err := bob.Users.SetAvatar(ctx, forgejo.UpdateUserAvatarRequest{Image: pngImage(2)}); err != nil {
		t.Fatal(err)
	}
	after, _, _ := srv.Client().Users.Get(ctx, "bob")
	if after.AvatarURL == before.AvatarURL || !strings.HasPrefix(after.AvatarURL, srv.URL+"/avatars/") {
		t.Errorf("avatar url %q then %q", before.AvatarURL, after.AvatarURL)
	}
}

// Administrators list and delete a user's addresses (Forgejo only); the
// primary one cannot go.
func TestAdminUserEmails(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	ctx := context.Background()
	bob := srv.Client(forgejo.WithToken(srv.AddUser("bob")))
	if _, _, err := bob.Users.AddEmails(ctx, forgejo.CreateEmailRequest{Emails: []string{"b@example.org", "c@example.org"}}); err != nil {
		t.Fatal(err)
	}
	admin := srv.Client()
	if _, err := admin.Admin.DeleteUserEmails(ctx, "bob", forgejo.DeleteEmailRequest{Emails: []string{"c@example.org"}}); err != nil {
		t.Fatal(err)
	}
	es, _, err := admin.Admin.ListUserEmails(ctx, "bob")
	if err != nil || len(es) != 2 || !es[0].Primary || es[1].Email != "b@example.org" || es[1].Username != "" || es[1].UserID != 0 {
		t.Errorf("bob's addresses: %v %+v", err, es)
	}
	_, err = bob.Users.DeleteEmails(ctx, forgejo.DeleteEmailRequest{Emails: []string{es[0].Email}})
	var ae *forgejo.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 {
		t.Errorf("delete the primary address: %v", err)
	}
}

// Seeded packages list newest first, link to a repository of their owner
// and go with their last version.
func TestPackages(t *testing.T) {
	srv := NewServer(t)
	ctx := context.Background()
	me := srv.DefaultUser()
	srv.AddRepo(me, "lib")
	srv.AddPackage(PackageSpec{Owner: me, Type: "generic", Name: "tool", Version: "1.0", Files: map[string][]byte{"tool.tgz": []byte("one")}})
	srv.AddPackage(PackageSpec{Owner: me, Type: "generic", Name: "tool", Version: "1.1"})
	srv.AddPackage(PackageSpec{Owner: me, Type: "npm", Name: "widget", Version: "2.0.0"})
	c := srv.Client()
	ps, resp, err := c.Packages.List(ctx, me, &forgejo.PackageListOptions{Type: "generic"})
	if n, _ := resp.TotalCount(); err != nil || len(ps) != 2 || n != 2 || ps[0].Version != "1.1" {
		t.Fatalf("generic packages: %v %+v", err, ps)
	}
	files, _, err := c.Packages.ListFiles(ctx, me, "generic", "tool", "1.0")
	if err != nil || len(files) != 1 || files[0].Size != 3 || files[0].SHA256 != "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed" {
		t.Errorf("files: %v %+v", err, files)
	}
	if _, err := c.Packages.Link(ctx, me, "generic", "tool", "lib"); err != nil {
		t.Fatal(err)
	}
	p, _, err := c.Packages.Get(ctx, me, "generic", "tool", "1.0")
	if err != nil || p.Repository == nil || p.Repository.Name != "lib" || !strings.HasSuffix(p.HTMLURL, "/-/packages/generic/tool/1.0") {
		t.Errorf("linked package: %v %+v", err, p)
	}
	_, err = c.Packages.Link(ctx, me, "generic", "tool", "lib")
	var ae *forgejo.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 {
		t.Errorf("link twice: %v", err)
	}
	bob := srv.Client(forgejo.WithToken(srv.AddUser("bob")))
	if _, err := bob.Packages.Delete(ctx, me, "generic", "tool", "1.0"); !errors.As(err, &ae) || ae.StatusCode != 403 {
		t.Errorf("bob deletes: %v", err)
	}
	for _, v := range []string{"1.0", "1.1"} {
		if _, err := c.Packages.Delete(ctx, me, "generic", "tool", v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Packages.Unlink(ctx, me, "generic", "tool"); !errors.As(err, &ae) || ae.StatusCode != 404 {
		t.Errorf("the package went with its last version: %v", err)
	}
}

// Quotas (Forgejo only) as Forgejo's own integration test drives them:
// rules, groups made with rules, members, and the check a user makes
// before storing more.
func TestQuotas(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	adm := "token " + srv.Token()
	bob := "token " + srv.AddUser("bob")
	srv.AddPackage(PackageSpec{Owner: "bob", Type: "generic", Name: "blob", Version: "1", Files: map[string][]byte{"b": make([]byte, 2048)}})
	for _, tc := range []struct {
		method, path string
		body         any
		want         int
		msg          string
	}{
		{"POST", "/admin/quota/rules", map[string]any{"name": "deny-all", "limit": 0, "subjects": []string{"size:all"}}, 201, ""},
		{"POST", "/admin/quota/rules", map[string]any{"name": "deny-all", "limit": 0}, 409, "rule already exists: [name: deny-all]"},
		{"POST", "/admin/quota/rules", map[string]any{"name": "x", "limit": 0, "subjects": []string{"valid:false"}}, 422, "unrecognized quota limit subject: [subject: valid:false]"},
		{"POST", "/admin/quota/rules", map[string]any{"name": "x"}, 422, "[Limit]: Required"},
		{"POST", "/admin/quota/groups", map[string]any{"name": "small", "rules": []map[string]any{
			{"name": "deny-all", "limit": -1}, {"name": "1kb-packages", "limit": 1024, "subjects": []string{"size:assets:packages:all"}}}}, 201, ""},
		{"POST", "/admin/quota/groups", map[string]any{"name": "small"}, 409, "group already exists: [name: small]"},
		{"PUT", "/admin/quota/groups/small/rules/deny-all", nil, 409, "rule already in group: [group: small, rule: deny-all]"},
		{"PUT", "/admin/quota/groups/small/rules/nope", nil, 404, "The target couldn't be found."},
		{"GET", "/user/quota/check?subject=size:assets:packages:all", nil, 200, ""},
		{"PUT", "/admin/quota/groups/small/users/bob", nil, 204, ""},
		{"PUT", "/admin/quota/groups/small/users/bob", nil, 409, ""},
		{"POST", "/admin/users/bob/quota/groups", map[string]any{"groups": []string{"small", "nope"}}, 422, "group not found: [group: nope]"},
		{"PATCH", "/admin/quota/rules/deny-all", map[string]any{"limit": 1 << 40}, 200, ""},
		{"DELETE", "/admin/quota/groups/small/rules/1kb-packages", nil, 204, ""},
		{"DELETE", "/admin/quota/groups/small/rules/1kb-packages", nil, 404, ""},
		{"DELETE", "/admin/quota/rules/1kb-packages", nil, 204, ""},
	} {
		st, _, body := rawCall(t, srv, tc.method, tc.path, adm, tc.body)
		if st != tc.want || (tc.msg != "" && message(body) != tc.msg) {
			t.Errorf("%s %s: %d %s, want %d %q", tc.method, tc.path, st, body, tc.want, tc.msg)
		}
	}
	// The existing rule joined the group unchanged (limit 0, then edited).
	st, _, body := rawCall(t, srv, "GET", "/admin/quota/groups/small", adm, nil)
	if st != 200 || string(body) != `{"name":"small","rules":[{"name":"deny-all","limit":1099511627776,"subjects":["size:all"]}]}` {
		t.Errorf("the group: %d %s", st, body)
	}
	// bob's 2 KiB package and 0 repositories are under the 1 TiB limit.
	st, _, body = rawCall(t, srv, "GET", "/user/quota/check?subject=size:assets:packages:all", bob, nil)
	if st != 200 || string(body) != "true" {
		t.Errorf("check: %d %s", st, body)
	}
	if st, _, body = rawCall(t, srv, "PATCH", "/admin/quota/rules/deny-all", adm, map[string]any{"limit": 1024}); st != 200 {
		t.Fatalf("edit: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/user/quota/check?subject=size:assets:packages:all", bob, nil)
	if st != 200 || string(body) != "false" {
		t.Errorf("check over the limit: %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/user/quota", bob, nil)
	if st != 200 || !strings.Contains(string(body), `"packages":{"all":2048}`) || strings.Contains(string(body), `"name"`) {
		t.Errorf("bob's quota (no names for a user): %d %s", st, body)
	}
	st, _, body = rawCall(t, srv, "GET", "/user/quota/packages", bob, nil)
	if st != 200 || !strings.Contains(string(body), `"size":2048`) {
		t.Errorf("bob's packages: %d %s", st, body)
	}
	if st, _, body = rawCall(t, srv, "GET", "/user/quota/check?subject=bogus", bob, nil); st != 422 {
		t.Errorf("bad subject: %d %s", st, body)
	}
}

// The heatmap counts a user's actions in 15-minute buckets of the last
// year.
func TestHeatmap(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	srv := NewServer(t, WithClock(NewFakeClock(now)))
	srv.AddRepo("bob", "r") // created now: one action
	srv.AddIssue("bob", "r", IssueSpec{Title: "a", Created: now.Add(-time.Minute)})
	srv.AddIssue("bob", "r", IssueSpec{Title: "b", Created: now.Add(-20 * time.Minute)})
	srv.AddIssue("bob", "r", IssueSpec{Title: "old", Created: now.AddDate(-2, 0, 0)})
	hm, _, err := srv.AnonymousClient().Users.ListHeatmap(context.Background(), "bob")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hm {
		got = append(got, fmt.Sprintf("%d:%d", h.Timestamp, h.Contributions))
	}
	b := now.Unix() / 900 * 900
	if want := []string{fmt.Sprintf("%d:1", b-1800), fmt.Sprintf("%d:1", b-900), fmt.Sprintf("%d:1", b)}; !slices.Equal(got, want) {
		t.Errorf("heatmap %v, want %v", got, want)
	}
}

// Each route of the area asks its group's scope: organization routes want
// organization, packages package, administration admin.
func TestRouteScopes(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	ctx := context.Background()
	me := srv.DefaultUser()
	if _, _, err := srv.Client().Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	tok, _, err := srv.Client().Admin.CreateUserToken(ctx, me, forgejo.CreateAccessTokenRequest{Name: "user-only", Scopes: []string{"write:user"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, path, scope string }{
		{"POST", "/orgs/acme/rename", "write:organization"},
		{"GET", "/orgs/acme/list_blocked", "read:organization"},
		{"GET", "/packages/" + me, "read:package"},
		{"GET", "/admin/cron", "read:admin"},
		{"DELETE", "/admin/users/nobody", "write:admin"},
	} {
		st, _, body := rawCall(t, srv, tc.method, tc.path, "token "+tok.SHA1, map[string]any{"new_name": "x"})
		if st != 403 || message(body) != "token does not have at least one of required scope(s): ["+tc.scope+"]" {
			t.Errorf("%s %s with write:user: %d %s", tc.method, tc.path, st, body)
		}
	}
	if st, _, body := rawCall(t, srv, "GET", "/user/settings", "token "+tok.SHA1, nil); st != 200 {
		t.Errorf("read with write:user: %d %s", st, body)
	}
	// An organization's members who are not owners may not rename it.
	bob := srv.AddUser("bob")
	if st, _, body := rawCall(t, srv, "POST", "/orgs/acme/rename", "token "+bob, map[string]any{"new_name": "evil"}); st != 403 {
		t.Errorf("rename by a non-owner: %d %s", st, body)
	}
}

// Truncated and damaged packets are refused, never a panic.
func TestGPGPacketsDamaged(t *testing.T) {
	key := armoredKey("Me <me@example.org>", 3)
	start := strings.Index(key, "\n\n") + 2
	data, err := base64.StdEncoding.DecodeString(key[start:strings.Index(key, "\n=")])
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(data) {
		for _, d := range [][]byte{data[:i], append(slices.Clone(data[:i]), 0xff, 0xff, 0xff)} {
			armored := "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + base64.StdEncoding.EncodeToString(d) + "\n-----END PGP PUBLIC KEY BLOCK-----"
			_, _ = parseArmoredKey(armored)
		}
	}
	if _, err := parseArmoredKey(key); err != nil {
		t.Fatal(err)
	}
}

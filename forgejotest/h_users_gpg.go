package forgejotest

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"
)

// GPG keys. The fake reads the OpenPGP packets of an armored public key
// (RFC 4880 v4 keys: the primary key, its user ids and subkeys, the key
// lifetime of its self-signature) but verifies no signature: a key whose
// self-signatures Forgejo would reject is accepted, and a signature over
// the verification token (armored_signature) cannot be checked, so it is
// refused as Forgejo refuses a wrong one. A key is added, as on Forgejo,
// when one of its e-mail addresses is one of the account's.

type gpgKey struct {
	id       int64
	owner    *user
	keyID    string // 16 upper-case hex digits
	content  string // base64 of the public key packet
	algo     byte
	created  time.Time
	expires  time.Time
	emails   []string
	verified []bool
	subkeys  []*gpgKey
	added    time.Time
}

type wGPGKeyEmail struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
}

type wGPGKey struct {
	ID                int64           `json:"id"`
	PrimaryKeyID      string          `json:"primary_key_id"`
	KeyID             string          `json:"key_id"`
	PublicKey         string          `json:"public_key"`
	Emails            []*wGPGKeyEmail `json:"emails"`
	Subkeys           []*wGPGKey      `json:"subkeys"`
	CanSign           bool            `json:"can_sign"`
	CanEncryptComms   bool            `json:"can_encrypt_comms"`
	CanEncryptStorage bool            `json:"can_encrypt_storage"`
	CanCertify        bool            `json:"can_certify"`
	Verified          bool            `json:"verified"`
	CreatedAt         string          `json:"created_at"`
	ExpiresAt         string          `json:"expires_at"`
}

// OpenPGP public-key algorithms (RFC 4880 9.1, RFC 6637).
const (
	pgpRSA, pgpRSAEncrypt, pgpElGamal, pgpECDH = 1, 2, 16, 18
)

func (k *gpgKey) render(primary string) *wGPGKey {
	canEncrypt := slices.Contains([]byte{pgpRSA, pgpRSAEncrypt, pgpElGamal, pgpECDH}, k.algo)
	canSign := k.algo != pgpElGamal && k.algo != pgpECDH
	w := &wGPGKey{ID: k.id, PrimaryKeyID: primary, KeyID: k.keyID, PublicKey: k.content, Emails: []*wGPGKeyEmail{}, Subkeys: []*wGPGKey{},
		CanSign: canSign, CanEncryptComms: canEncrypt, CanEncryptStorage: canEncrypt, CanCertify: canSign,
		CreatedAt: ts(k.created), ExpiresAt: epochTime}
	if !k.expires.IsZero() {
		w.ExpiresAt = ts(k.expires)
	}
	for i, e := range k.emails {
		w.Emails = append(w.Emails, &wGPGKeyEmail{Email: e, Verified: k.verified[i]})
		w.Verified = w.Verified || k.verified[i]
	}
	for _, s := range k.subkeys {
		w.Subkeys = append(w.Subkeys, s.render(k.keyID))
	}
	return w
}

type pgpPacket struct {
	tag  byte
	body []byte
}

var errArmor = errors.New("openpgp: invalid data: armor invalid")

// dearmor returns the data of the first public key block in s.
func dearmor(s string) ([]byte, error) {
	const begin, end = "-----BEGIN PGP PUBLIC KEY BLOCK-----", "-----END PGP PUBLIC KEY BLOCK-----"
	i := strings.Index(s, begin)
	if i < 0 {
		return nil, errors.New("openpgp: invalid argument: no armored data found")
	}
	rest := s[i+len(begin):]
	j := strings.Index(rest, end)
	if j < 0 {
		return nil, errArmor
	}
	lines := strings.Split(strings.ReplaceAll(rest[:j], "\r", ""), "\n")
	var b64 strings.Builder
	inBody := false
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		switch {
		case !inBody && l == "":
			inBody = true
		case !inBody && strings.Contains(l, ": "): // an armor header
		case strings.HasPrefix(l, "="): // the CRC24, not checked
		default:
			inBody = true
			b64.WriteString(l)
		}
	}
	data, err := base64.StdEncoding.DecodeString(b64.String())
	if err != nil || len(data) == 0 {
		return nil, errArmor
	}
	return data, nil
}

// pgpPackets splits OpenPGP packets (old and new formats, without partial
// lengths).
func pgpPackets(b []byte) ([]pgpPacket, error) {
	bad := errors.New("openpgp: invalid data: packet header too short")
	var out []pgpPacket
	for len(b) > 0 {
		h := b[0]
		if h&0x80 == 0 {
			return nil, errors.New("openpgp: invalid data: tag byte does not have MSB set")
		}
		var tag byte
		var n, hl int
		if h&0x40 != 0 { // new format
			tag = h & 0x3f
			if len(b) < 2 {
				return nil, bad
			}
			switch l := b[1]; {
			case l < 192:
				n, hl = int(l), 2
			case l < 224:
				if len(b) < 3 {
					return nil, bad
				}
				n, hl = (int(l)-192)<<8+int(b[2])+192, 3
			case l == 255:
				if len(b) < 6 {
					return nil, bad
				}
				n, hl = int(binary.BigEndian.Uint32(b[2:6])), 6
			default:
				return nil, errors.New("openpgp: unsupported feature: partial body length")
			}
		} else {
			tag = (h >> 2) & 0x0f
			switch h & 3 {
			case 0:
				if len(b) < 2 {
					return nil, bad
				}
				n, hl = int(b[1]), 2
			case 1:
				if len(b) < 3 {
					return nil, bad
				}
				n, hl = int(binary.BigEndian.Uint16(b[1:3])), 3
			case 2:
				if len(b) < 5 {
					return nil, bad
				}
				n, hl = int(binary.BigEndian.Uint32(b[1:5])), 5
			default:
				n, hl = len(b)-1, 1
			}
		}
		if n < 0 || len(b) < hl+n {
			return nil, errors.New("openpgp: invalid data: packet too short")
		}
		out = append(out, pgpPacket{tag: tag, body: b[hl : hl+n]})
		b = b[hl+n:]
	}
	return out, nil
}

// pgpKey reads a v4 public key or subkey packet.
func pgpKey(body []byte) (*gpgKey, error) {
	if len(body) < 6 || body[0] != 4 {
		return nil, errors.New("openpgp: unsupported feature: public key version")
	}
	hdr := []byte{0x99, byte(len(body) >> 8), byte(len(body))}
	fp := sha1.Sum(append(hdr, body...))
	serialized := append([]byte{0xc6}, newLength(len(body))...)
	return &gpgKey{
		keyID:   strings.ToUpper(hex.EncodeToString(fp[12:])),
		content: base64.StdEncoding.EncodeToString(append(serialized, body...)),
		algo:    body[5],
		created: time.Unix(int64(binary.BigEndian.Uint32(body[1:5])), 0).UTC(),
	}, nil
}

func newLength(n int) []byte {
	switch {
	case n < 192:
		return []byte{byte(n)}
	case n < 8384:
		n -= 192
		return []byte{byte(n>>8) + 192, byte(n)}
	}
	return []byte{255, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
}

// keyLifetime reads the key expiration time subpacket of a v4
// self-signature, 0 when there is none.
func keyLifetime(sig []byte) uint32 {
	if len(sig) < 6 || sig[0] != 4 {
		return 0
	}
	n := int(binary.BigEndian.Uint16(sig[4:6]))
	if len(sig) < 6+n {
		return 0
	}
	sub := sig[6 : 6+n]
	for len(sub) > 0 {
		l, hl := int(sub[0]), 1
		switch {
		case l >= 255:
			if len(sub) < 5 {
				return 0
			}
			l, hl = int(binary.BigEndian.Uint32(sub[1:5])), 5
		case l >= 192:
			if len(sub) < 2 {
				return 0
			}
			l, hl = (l-192)<<8+int(sub[1])+192, 2
		}
		if l < 1 || len(sub) < hl+l {
			return 0
		}
		if typ := sub[hl] & 0x7f; typ == 9 && l == 5 {
			return binary.BigEndian.Uint32(sub[hl+1 : hl+5])
		}
		sub = sub[hl+l:]
	}
	return 0
}

// parseArmoredKey reads an armored public key: the primary key with its
// e-mail addresses and subkeys.
func parseArmoredKey(s string) (*gpgKey, error) {
	data, err := dearmor(s)
	if err != nil {
		return nil, err
	}
	packets, err := pgpPackets(data)
	if err != nil {
		return nil, err
	}
	if len(packets) == 0 || packets[0].tag != 6 {
		return nil, errors.New("openpgp: invalid data: first packet was not a public key")
	}
	primary, err := pgpKey(packets[0].body)
	if err != nil {
		return nil, err
	}
	current := primary
	for _, p := range packets[1:] {
		switch p.tag {
		case 13: // user id
			current = primary
			if a, err := mail.ParseAddress(string(p.body)); err == nil && !slices.Contains(primary.emails, a.Address) {
				primary.emails = append(primary.emails, a.Address)
			}
		case 14: // subkey
			sk, err := pgpKey(p.body)
			if err != nil {
				return nil, err
			}
			primary.subkeys = append(primary.subkeys, sk)
			current = sk
		case 2: // signature: only the lifetime is read
			if d := keyLifetime(p.body); d > 0 {
				current.expires = current.created.Add(time.Duration(d) * time.Second)
			}
		}
	}
	return primary, nil
}

// gpgToken is the token a key's owner signs, as Forgejo's
// VerificationToken: a SHA-256 over the current minute and the account.
func (c *call) gpgToken() string {
	sum := sha256.Sum256([]byte(c.now.UTC().Truncate(time.Minute).Format(time.RFC1123Z) + ":" +
		ts(c.user.created) + ":" + c.user.login + ":" + c.st.accounts.primaryEmail(c.user)))
	return hex.EncodeToString(sum[:])
}

// hGPGToken answers the verification token, in text/plain.
func hGPGToken(c *call) {
	c.status, c.out = http.StatusOK, []byte(c.gpgToken())
	c.header.Set("Content-Type", "text/plain;charset=utf-8")
}

func hCreateGPGKey(c *call) {
	var b struct {
		Key       string `json:"armored_public_key"`
		Signature string `json:"armored_signature"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.Key) == "" {
		c.fail(http.StatusUnprocessableEntity, "[ArmoredKey]: Required")
		return
	}
	k, err := parseArmoredKey(b.Key)
	if err != nil {
		c.fail(http.StatusUnprocessableEntity, "failed to parse gpg key "+err.Error())
		return
	}
	for _, x := range c.st.accounts.gpgKeys {
		if x.keyID == k.keyID {
			c.fail(http.StatusUnprocessableEntity, "A key with the same id already exists")
			return
		}
	}
	token := c.gpgToken()
	if b.Signature != "" {
		c.fail(http.StatusUnprocessableEntity, "The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+token)
		return
	}
	mine := c.st.emailsOf(c.user, false)
	any := false
	for _, e := range k.emails {
		ok := slices.ContainsFunc(mine, func(m *wEmail) bool { return strings.EqualFold(m.Email, e) })
		k.verified = append(k.verified, ok)
		any = any || ok
	}
	if !any {
		c.fail(http.StatusNotFound, "None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: "+token)
		return
	}
	k.id, k.owner, k.added = c.st.id("gpgkey"), c.user, c.now
	for _, s := range k.subkeys {
		s.id, s.owner = c.st.id("gpgkey"), c.user
	}
	c.st.accounts.gpgKeys = append(c.st.accounts.gpgKeys, k)
	c.json(http.StatusCreated, k.render(""))
}

func hListGPGKeys(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var ks []*gpgKey
		for _, k := range c.st.accounts.gpgKeys {
			if k.owner == u {
				ks = append(ks, k)
			}
		}
		out := []*wGPGKey{}
		for _, k := range paginate(c, ks, pageTotalOnly) {
			out = append(out, k.render(""))
		}
		c.json(http.StatusOK, out)
	}
}

func (c *call) myGPGKey() *gpgKey {
	id, _ := c.pathInt("id")
	for _, k := range c.st.accounts.gpgKeys {
		if k.id == id && k.owner == c.user {
			return k
		}
	}
	return nil
}

func hGetGPGKey(c *call) {
	if k := c.myGPGKey(); k != nil {
		c.json(http.StatusOK, k.render(""))
		return
	}
	c.notFound()
}

// hDeleteGPGKey deletes one of the caller's keys; a key that is not there
// is Forgejo's 204 too, another's its 403.
func hDeleteGPGKey(c *call) {
	id, _ := c.pathInt("id")
	for _, k := range c.st.accounts.gpgKeys {
		if k.id != id {
			continue
		}
		if k.owner != c.user {
			c.fail(http.StatusForbidden, "You do not have access to this key")
			return
		}
		c.st.accounts.gpgKeys = slices.DeleteFunc(c.st.accounts.gpgKeys, func(x *gpgKey) bool { return x == k })
	}
	c.empty(http.StatusNoContent)
}

// hVerifyGPGKey: a request without armored_signature fails the binding
// first (422 "[Signature]: Required", whatever the key id, as Forgejo 15
// answers); then a key id of zeros (or none) is a 404; a key of the
// caller's cannot have its signature checked by the fake, which refuses it
// as a wrong one; any other key id is the 500 Forgejo answers
// (ErrGPGKeyNotExist reaches the handler's default case).
//
// The server strips the leading zeros of the key id it is sent and then
// looks the key up by that stripped id, while it stores every id with its
// 16 digits: a key whose id begins with 0 is never found, and verifying it
// is that 500 whatever the request spells (the real Gitea of the
// integration suite answers so; Forgejo runs the same lookup).
func hVerifyGPGKey(c *call) {
	var b struct {
		KeyID     string `json:"key_id"`
		Signature string `json:"armored_signature"`
	}
	if !c.decode(&b) {
		return
	}
	if b.Signature == "" {
		c.fail(http.StatusUnprocessableEntity, "[Signature]: Required")
		return
	}
	id := strings.TrimLeft(b.KeyID, "0")
	if id == "" {
		c.notFound()
		return
	}
	for _, k := range c.st.accounts.gpgKeys {
		if k.owner == c.user && strings.EqualFold(k.keyID, id) {
			c.fail(http.StatusUnprocessableEntity, "The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "+c.gpgToken())
			return
		}
	}
	c.internalError("public key does not exist [id: 0]")
}

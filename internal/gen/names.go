package main

import (
	"go/token"
	"strings"
	"unicode"
)

// This file turns wire names (snake_case, kebab-case, camelCase JSON keys and
// parameters) into Go identifiers with Go's initialisms.

// initialisms are the words written in capitals in Go names. "uuid" and "pr"
// are deliberately absent: the first slice of hand-written models named
// Attachment.Uuid and Repository.OpenPrCounter, and the generated models
// keep those names.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "html": "HTML", "api": "API",
	"ssh": "SSH", "gpg": "GPG", "sha": "SHA", "shas": "SHAs", "sha1": "SHA1", "sha256": "SHA256", "sha512": "SHA512",
	"md5": "MD5", "lfs": "LFS", "ui": "UI", "ip": "IP", "json": "JSON", "http": "HTTP",
	"https": "HTTPS", "otp": "OTP", "totp": "TOTP", "oauth2": "OAuth2", "uid": "UID",
	"uri": "URI", "uris": "URIs", "2fa": "2FA", "ok": "OK", "tls": "TLS", "dns": "DNS",
}

// words splits a wire name into lower-case words: on '_', '-', '.', '@', and
// at camelCase boundaries ("openRegistrations", "ScheduleID").
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '@' || r == ' ' || r == '/':
			flush()
		case unicode.IsUpper(r):
			// A new word starts at an upper-case letter that follows a
			// lower-case letter or digit, or that begins a word after an
			// acronym ("IDs" is handled as one word by the map).
			if len(cur) > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// exported turns a wire name into an exported Go identifier.
func exported(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if ini, ok := initialisms[w]; ok {
			b.WriteString(ini)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// unexported turns a wire name into a lower-camel Go identifier for a
// parameter; Go keywords get a short replacement.
func unexported(s string) string {
	ws := words(s)
	var b strings.Builder
	for i, w := range ws {
		if i == 0 {
			b.WriteString(w)
			continue
		}
		if ini, ok := initialisms[w]; ok {
			b.WriteString(ini)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	name := b.String()
	if token.IsKeyword(name) {
		switch name {
		case "type":
			return "typ"
		default:
			return name + "Arg"
		}
	}
	return name
}

// upperFirst upper-cases the first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

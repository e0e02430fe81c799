package forgejo

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// secretish is what a name of a type or field that may hold a credential
// looks like.
var secretish = regexp.MustCompile(`(?i)(secret|passw|passwd|sha1|token|authoriz|credential|otp|config)`)

// notSecret lists the types the scan flags that hold no credential, and
// why.
var notSecret = map[string]string{
	"AccessToken.TokenLastEight": "the last eight characters, which Forgejo shows in its UI to tell tokens apart",
	"CreateAccessTokenRequest":   "a token's name and scopes: the token is in the answer (AccessToken)",
	"RepoCollaboratorPermission": "permissions",
	"PayloadCommitVerification":  "a signature's verification, public",
	"GPGKeyEmail":                "public",
	"CreateGPGKeyRequest":        "a public key",
	"VerifyGPGKeyRequest":        "a signature of a public token",
	"EditDeadlineRequest":        "a date",
	"TokenSourceFunc":            "a function",
	"Hooks":                      "functions; what they are handed is redacted already",
	"Commit.SHA1":                "a commit ID",
	"CommitMeta.SHA1":            "a commit ID",
	"ExternalTracker":            "URLs",
	"ExternalWiki":               "a URL",
	"InternalTracker":            "booleans",
	"RepoCommit":                 "commit metadata",
	"CommitUser":                 "a name and e-mail",
	"ContentsResponse":           "file metadata",
	"FileCommitResponse":         "commit metadata",
	"GeneralAPISettings":         "limits",
	"GeneralAttachmentSettings":  "limits",
	"GeneralRepoSettings":        "switches",
	"GeneralUISettings":          "names",
	"NodeInfoUsage":              "counts",
	"Permission":                 "booleans",
	"ScopeRequirement":           "the names of the scopes an operation requires, no token",
	"ScopeError":                 "the names of the scopes refused, and the *APIError, whose texts the client scrubbed",
	"RepositoryMeta":             "IDs and names",
	"ActionVariable":             "an Actions variable, which Forgejo shows to anyone who can read the repository's settings",
	"CreateVariableRequest":      "an Actions variable",
	"UpdateVariableRequest":      "an Actions variable",
	"IssueConfig":                "a repository's issue-template configuration",
	"IssueConfigContactLink":     "a link",
	"IssueConfigValidation":      "a validation message",
	"PackageFile":                "file digests",
	"RepoGetEditorConfigOptions": "a ref",
	"RetryBudget":                "retry tokens, a count",
	"Secret":                     "an Actions secret's name and date: Forgejo never returns the value",
	"Response": "the server's answer, the caller's own data, kept as sent (Header is documented as not scrubbed; " +
		"RequestID and RateLimit are)",
}

// sampleSecret is what every sample's secret fields hold.
const sampleSecret = "S3cret-Sample-9c41f0e7b2d8a5"

// secretSamples is a value of every type that holds a secret: the
// generated models (secrets_gen_test.go) and the hand-written types.
func secretSamples() (samples map[string]any, wire map[string]bool) {
	samples = generatedSecretSamples(sampleSecret)
	wire = map[string]bool{}
	for name := range samples {
		wire[name] = true // their JSON is the wire format, and keeps the value
	}
	c, err := NewClient(WithToken(sampleSecret))
	if err != nil {
		panic(err)
	}
	cb, err := NewClient(WithBasicAuth("alice", sampleSecret))
	if err != nil {
		panic(err)
	}
	samples["Client"] = c
	samples["Client (basic auth)"] = cb
	samples["Token"] = Token{Value: sampleSecret, Type: "Bearer"}
	samples["Request"] = Request{Method: "GET", Path: "/user", Query: url.Values{"password": {sampleSecret}, "Token": {sampleSecret}, "q": {"x"}},
		Body: CreateUserRequest{Password: sampleSecret}}
	return samples, wire
}

// TestSecretsNeverRender enumerates every exported type of the package that
// may hold a credential (by the names of the type and its fields), requires
// a sample of each, and renders each sample under every fmt verb, both slog
// handlers and encoding/json: none shows the secret.
func TestSecretsNeverRender(t *testing.T) {
	samples, wire := secretSamples()
	flagged := scanSecretHolders(t, ".")
	var missing []string
	for _, name := range flagged {
		if _, ok := samples[name]; ok {
			continue
		}
		if _, ok := notSecret[name]; ok {
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) > 0 {
		t.Errorf("types that may hold a secret with no sample in secretSamples (or reason in notSecret): %s\n"+
			"A generated model: add its field to secretFields in internal/gen/emit_secrets.go.", strings.Join(missing, ", "))
	}
	vectors, failing := 0, 0
	for _, name := range sortedNames(samples) {
		v := samples[name]
		ptr := reflect.New(reflect.TypeOf(v))
		ptr.Elem().Set(reflect.ValueOf(v))
		for _, value := range []any{v, ptr.Interface()} {
			for _, out := range renderAll(value, !wire[name]) {
				vectors++
				if leaksSample(out.text) {
					failing++
					t.Errorf("%s under %s shows the secret: %s", name, out.how, out.text)
				}
			}
		}
		if wire[name] {
			// The wire format keeps the value: the library sends it.
			if b, err := json.Marshal(v); err != nil || !strings.Contains(string(b), sampleSecret) {
				t.Errorf("%s: the JSON encoding lost the secret it must send: %s %v", name, b, err)
			}
		}
	}
	t.Logf("%d types scanned as holding a secret, %d samples, %d renderings, %d failing", len(flagged), len(samples), vectors, failing)
}

type rendering struct{ how, text string }

// renderAll renders v every way a program prints or logs a value.
func renderAll(v any, withJSON bool) []rendering {
	var out []rendering
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%20.40s", "%d"} {
		out = append(out, rendering{verb, fmt.Sprintf(verb, v)})
		out = append(out, rendering{verb + " in a slice", fmt.Sprintf(verb, []any{v})})
		out = append(out, rendering{verb + " in a struct", fmt.Sprintf(verb, struct{ V any }{v})})
	}
	out = append(out, rendering{"Sprint", fmt.Sprint(v)}, rendering{"Sprintln", fmt.Sprintln(v)})
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("m", "v", v)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("m", "v", v)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("m", slog.Group("g", "v", v))
	out = append(out, rendering{"slog text", text.String()}, rendering{"slog JSON", js.String()})
	if withJSON {
		b, err := json.Marshal(v)
		out = append(out, rendering{"encoding/json", fmt.Sprint(string(b), err)})
	}
	return out
}

// leaksSample reports whether text holds the sample secret in any form a
// renderer produces: raw, hex, quoted.
func leaksSample(text string) bool {
	for _, form := range []string{sampleSecret, hex.EncodeToString([]byte(sampleSecret))[:16], strings.ToUpper(hex.EncodeToString([]byte(sampleSecret)))[:16], sampleSecret[:10]} {
		if strings.Contains(text, form) {
			return true
		}
	}
	return false
}

// scanSecretHolders parses the package's non-test files in dir and returns
// every exported type whose name, or one of whose field names or types,
// looks like it holds a credential; a flagged field is reported as
// "Type.Field" when the type is in notSecret by field, else as the type.
func scanSecretHolders(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if !ts.Name.IsExported() {
					continue
				}
				name := ts.Name.Name
				switch typ := ts.Type.(type) {
				case *ast.StructType:
					if secretish.MatchString(name) {
						seen[name] = true
					}
					for _, fl := range typ.Fields.List {
						ft := string(src[fset.Position(fl.Type.Pos()).Offset:fset.Position(fl.Type.End()).Offset])
						holder := strings.Contains(ft, "url.Values") || strings.Contains(ft, "http.Header") || strings.Contains(ft, "secret.Text") ||
							secretish.MatchString(ft)
						for _, n := range fl.Names {
							if n.IsExported() && (holder || secretish.MatchString(n.Name)) {
								if _, ok := notSecret[name+"."+n.Name]; ok {
									continue
								}
								seen[name] = true
							}
						}
					}
				case *ast.MapType:
					if secretish.MatchString(name) {
						seen[name] = true
					}
				}
			}
		}
	}
	return sortedNames(seen)
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

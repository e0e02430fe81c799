package record

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

const src = `package p

type Option func(*config)
type config struct{}

const MaxFragment = 512
const Mode Kind = "admin"
type Kind string

var Default *Client

type Client struct {
	BaseURL string
	inner
	secret string
}
type inner struct{}
func (inner) Hidden() {}

func NewClient(opts ...Option) (*Client, error) { return nil, nil }
func (c *Client) Get(owner, repo string, opts ...Option) (*Client, error) { return nil, nil }
func (c Client) String() string { return "" }

type Observer interface {
	OnRequest(n int)
	private()
}

type Page[T any] struct{ Items []T }
func (p *Page[T]) Next() (*Page[T], bool) { return nil, false }
func Collect[T any](f func(int) ([]T, error)) []T { return nil }

type Alias = Kind
`

func TestPackageAPI(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := packageAPI(pkg)
	slices.Sort(got)
	want := []string{
		"const MaxFragment untyped int = 512",
		"const Mode Kind = \"admin\"",
		"func Collect[T any](func(int) ([]T, error)) []T",
		"func NewClient(...Option) (*Client, error)",
		"method (*Client) Get(string, string, ...Option) (*Client, error)",
		"method (*Page[T]) Next() (*Page[T], bool)",
		"method (Client) Hidden()",
		"method (Client) String() string",
		"type Alias = Kind",
		"type Client struct",
		"type Client struct, BaseURL string",
		"type Kind string",
		"type Observer interface",
		"type Observer interface, OnRequest(int)",
		"type Observer interface, unexported methods",
		"type Option func(*config)",
		"type Page[T any] struct",
		"type Page struct, Items []T",
		"var Default *Client",
	}
	for i := range want {
		want[i] = "pkg example.com/p, " + want[i]
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompare(t *testing.T) {
	p := "pkg example.com/p, "
	recorded := []string{
		p + "func Keep()",
		p + "func Gone(int) error",
		p + "func Sig(int) error",
		p + "method (*T) M(string)",
		p + "type T struct, F int",
	}
	current := []string{
		p + "func Keep()",
		p + "func New()",
		p + "func Sig(int64) error",
		p + "method (T) M(string)",
		p + "type T struct, F string",
	}
	d := Compare(recorded, current)
	if !slices.Equal(d.Added, []string{p + "func New()"}) {
		t.Errorf("added %q", d.Added)
	}
	if !slices.Equal(d.Removed, []string{p + "func Gone(int) error"}) {
		t.Errorf("removed %q", d.Removed)
	}
	if len(d.Changed) != 3 {
		t.Errorf("changed %q, want Sig, M and F", d.Changed)
	}
	if s := d.String(); !strings.Contains(s, "func New()") || !strings.Contains(s, "was: "+p+"func Sig(int) error") {
		t.Errorf("report %s", s)
	}
	if !Compare(recorded, recorded).Empty() {
		t.Error("a record differs from itself")
	}
}

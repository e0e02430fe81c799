package forgejotest

import "testing"

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct {
		src  string
		hard bool
		want string
	}{
		{"a *b* **c** `d`", false, `<p dir="auto">a <em>b</em> <strong>c</strong> <code>d</code></p>` + "\n"},
		{"don't <script>", false, `<p dir="auto">don&#39;t &lt;script&gt;</p>` + "\n"},
		{"see https://x.org", true, `<p dir="auto">see <a href="https://x.org" rel="nofollow">https://x.org</a></p>` + "\n"},
		{"see https://x.org", false, `<p dir="auto">see https://x.org</p>` + "\n"},
		{"```\n<a>\n```", false, "<pre><code>&lt;a&gt;\n</code></pre>\n"},
		{"### Three ###", false, `<h3 id="user-content-three" dir="auto">Three</h3>` + "\n"},
		{"# A *b*, c!\n# A b c", false, `<h1 id="user-content-a-b-c" dir="auto">A <em>b</em>, c!</h1>` + "\n" + `<h1 id="user-content-a-b-c-1" dir="auto">A b c</h1>` + "\n"},
		{"one\ntwo", false, `<p dir="auto">one<br>` + "\ntwo</p>\n"},
		{"one\ntwo", true, `<p dir="auto">one<br/>` + "\ntwo</p>\n"},
		{"* x\n* y", false, "<ul dir=\"auto\">\n<li>x</li>\n<li>y</li>\n</ul>\n"},
	} {
		if got := renderMarkdown(tc.src, tc.hard); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.src, got, tc.want)
		}
	}
}

package forgejotest

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The instance's version, its templates (labels, .gitignore, licenses:
// a small fixed set of the fake's own, in Forgejo's shapes) and markup
// rendering; its settings are in h_settings.go.

// ---- templates

type wLabelTemplate struct {
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	Color       string `json:"color"`
	Description string `json:"description"`
}

// labelTemplates are the label sets a repository can start with, by name.
var labelTemplates = map[string][]wLabelTemplate{
	"Default": {
		{"Kind/Bug", false, "ee0701", "Something is not working"},
		{"Kind/Feature", false, "0288d1", "New functionality"},
		{"Kind/Enhancement", false, "84b6eb", "Improve existing functionality"},
		{"Kind/Documentation", false, "37474f", "Documentation changes"},
		{"Kind/Security", false, "9c27b0", "This is security issue"},
		{"Kind/Testing", false, "795548", "Issue or pull request related to testing"},
		{"Priority/Critical", true, "b71c1c", "The priority is critical"},
		{"Priority/High", true, "d32f2f", "The priority is high"},
		{"Priority/Medium", true, "e64a19", "The priority is medium"},
		{"Priority/Low", true, "4caf50", "The priority is low"},
		{"Reviewed/Confirmed", true, "795548", "Issue has been confirmed"},
		{"Reviewed/Duplicate", true, "616161", "This issue or pull request already exists"},
		{"Reviewed/Invalid", true, "546e7a", "Invalid issue"},
		{"Reviewed/Won't Fix", true, "eeeeee", "This issue won't be fixed"},
		{"Status/Abandoned", true, "222222", "Somebody has started to work on this but abandoned work"},
		{"Status/Blocked", true, "880e4f", "Something is blocking this issue or pull request"},
		{"Status/Need More Info", true, "424242", "Feedback is required to reproduce issue or to continue work"},
	},
	"Advanced": {
		{"Compat/Breaking", false, "c62828", "Breaking change that won't be backward compatible"},
		{"Kind/Bug", false, "ee0701", "Something is not working"},
		{"Kind/Feature", false, "0288d1", "New functionality"},
		{"Kind/Enhancement", false, "84b6eb", "Improve existing functionality"},
		{"Kind/Documentation", false, "37474f", "Documentation changes"},
		{"Priority/High", true, "d32f2f", "The priority is high"},
		{"Priority/Low", true, "4caf50", "The priority is low"},
		{"Status/Blocked", true, "880e4f", "Something is blocking this issue or pull request"},
	},
}

// gitignoreTemplates and licenseTemplates are the fake's own short texts,
// not the files a Forgejo ships: enough for a tool that lists templates and
// reads one back.
var gitignoreTemplates = map[string]string{
	"Go":     "# Binaries and test output\n*.exe\n*.test\n*.out\n/vendor/\n",
	"Node":   "node_modules/\nnpm-debug.log*\ndist/\n",
	"Python": "__pycache__/\n*.py[cod]\n.venv/\ndist/\n",
	"Rust":   "/target/\n",
}

var licenseTemplates = map[string]string{
	"MIT":          "MIT License\n\nCopyright (c) <year> <owner>\n\n(the fake's placeholder for the MIT license text)\n",
	"Apache-2.0":   "Apache License\nVersion 2.0, January 2004\n\n(the fake's placeholder for the Apache License 2.0 text)\n",
	"GPL-3.0-only": "GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007\n\n(the fake's placeholder for the GPL 3.0 text)\n",
	"0BSD":         "BSD Zero Clause License\n\nCopyright (c) <year> <owner>\n\n(the fake's placeholder for the 0BSD text)\n",
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func hLabelTemplates(c *call) { c.json(http.StatusOK, sortedKeys(labelTemplates)) }

func hLabelTemplate(c *call) {
	ls, ok := labelTemplates[c.p["name"]]
	if !ok {
		c.notFound()
		return
	}
	c.json(http.StatusOK, ls)
}

func hGitignoreTemplates(c *call) { c.json(http.StatusOK, sortedKeys(gitignoreTemplates)) }

func hGitignoreTemplate(c *call) {
	name := c.p["name"]
	src, ok := gitignoreTemplates[name]
	if !ok {
		c.notFound()
		return
	}
	c.json(http.StatusOK, struct {
		Name   string `json:"name"`
		Source string `json:"source"`
	}{name, src})
}

type wLicenseEntry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

func hLicenseTemplates(c *call) {
	out := []*wLicenseEntry{}
	for _, k := range sortedKeys(licenseTemplates) {
		out = append(out, &wLicenseEntry{k, k, c.v.api("/licenses/" + url.PathEscape(k))})
	}
	c.json(http.StatusOK, out)
}

func hLicenseTemplate(c *call) {
	name := c.p["name"]
	body, ok := licenseTemplates[name]
	if !ok {
		c.notFound()
		return
	}
	c.json(http.StatusOK, struct {
		Key            string `json:"key"`
		Name           string `json:"name"`
		URL            string `json:"url"`
		Implementation string `json:"implementation"`
		Body           string `json:"body"`
	}{name, name, c.v.api("/licenses/" + url.PathEscape(name)),
		"Create a text file (typically named LICENSE or LICENSE.md) in the root of your source code and copy the text of the license into the file", body})
}

// ---- markup

// hMarkdown renders {Text, Mode}: "comment" turns single newlines into
// line breaks, as Forgejo does for comments; every other mode renders a
// document. An empty text is an empty 200.
func hMarkdown(c *call) {
	var b struct {
		Text string `json:"Text"`
		Mode string `json:"Mode"`
	}
	if !c.decode(&b) {
		return
	}
	c.html(renderMarkdown(b.Text, b.Mode == "comment"))
}

// hMarkdownRaw renders the body itself as a document.
func hMarkdownRaw(c *call) { c.html(renderMarkdown(string(c.body), false)) }

// hMarkup is hMarkdown for /markup: every file is rendered as Markdown.
func hMarkup(c *call) { hMarkdown(c) }

func (c *call) html(s string) {
	c.status, c.out = http.StatusOK, []byte(s)
	c.header.Set("Content-Type", "text/html; charset=utf-8")
}

// renderMarkdown is a small Markdown renderer that writes what the API's
// renderer (goldmark, then the sanitizer) writes for the common cases, as
// checked against Gitea 1.27 and Forgejo 15 (the contract scenario):
// paragraphs and lists with dir="auto", ATX headings with Forgejo 15's
// id="user-content-…" and dir="auto" (Gitea 1.27 sends a bare <hN>), a
// line break within a paragraph as <br/> in a comment and as <br> in a
// document (Forgejo 15; Gitea 1.27 keeps a document's newline), bullet and
// numbered lists, block quotes, thematic breaks, inline code, strong,
// emphasis, links, the sanitizer's inline tags (<b>, <i>...), bare URLs
// linked in comments only, text escaped as the sanitizer escapes it. Its
// limits: no nesting of lists or quotes in lists, no tables, setext
// headings, indented code, raw HTML blocks, reference links or images; no
// @mention, #issue or commit links; relative links are not resolved
// against the context; fenced code is not highlighted (Forgejo wraps it in
// chroma's spans).
func renderMarkdown(src string, hardBreaks bool) string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out strings.Builder
	var para []string
	ids := map[string]int{} // heading ids given, for the -1, -2 of repeats
	flush := func() {
		if len(para) == 0 {
			return
		}
		sep := "<br>\n"
		if hardBreaks {
			sep = "<br/>\n"
		}
		parts := make([]string, len(para))
		for i, l := range para {
			parts[i] = renderInline(strings.TrimSpace(l), hardBreaks)
		}
		out.WriteString(`<p dir="auto">` + strings.Join(parts, sep) + "</p>\n")
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		switch {
		case trim == "":
			flush()
		case strings.HasPrefix(trim, "```"):
			flush()
			lang := strings.TrimSpace(strings.TrimPrefix(trim, "```"))
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, lines[i])
			}
			class := ""
			if lang != "" {
				class = ` class="language-` + html.EscapeString(lang) + `"`
			}
			body := strings.Join(code, "\n")
			if len(code) > 0 {
				body += "\n"
			}
			out.WriteString("<pre><code" + class + ">" + html.EscapeString(body) + "</code></pre>\n")
		case headingRE.MatchString(trim):
			flush()
			m := headingRE.FindStringSubmatch(trim)
			text := strings.TrimSpace(strings.TrimRight(m[2], "#"))
			lvl := string(rune('0' + len(m[1])))
			inner := renderInline(text, hardBreaks)
			id := headingID(inner)
			if n := ids[id]; n > 0 {
				ids[id]++
				id += "-" + strconv.Itoa(n)
			} else {
				ids[id] = 1
			}
			out.WriteString("<h" + lvl + ` id="user-content-` + id + `" dir="auto">` + inner + "</h" + lvl + ">\n")
		case hrRE.MatchString(trim):
			flush()
			out.WriteString("<hr>\n")
		case strings.HasPrefix(trim, ">"):
			flush()
			var quoted []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">"); i++ {
				q := strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")
				quoted = append(quoted, strings.TrimPrefix(q, " "))
			}
			i--
			out.WriteString("<blockquote>\n" + renderMarkdown(strings.Join(quoted, "\n"), hardBreaks) + "</blockquote>\n")
		case bulletRE.MatchString(line) || orderedRE.MatchString(line):
			flush()
			re, tag := bulletRE, "ul"
			if !bulletRE.MatchString(line) {
				re, tag = orderedRE, "ol"
			}
			out.WriteString("<" + tag + ` dir="auto">` + "\n")
			for ; i < len(lines) && re.MatchString(lines[i]); i++ {
				item := re.FindStringSubmatch(lines[i])[1]
				out.WriteString("<li>" + renderInline(strings.TrimSpace(item), hardBreaks) + "</li>\n")
			}
			i--
			out.WriteString("</" + tag + ">\n")
		default:
			para = append(para, line)
		}
	}
	flush()
	return out.String()
}

// headingID is the id goldmark gives a heading, as Forgejo cleans it: the
// heading's text lower-cased, its letters and digits kept, every run of
// anything else between them one "-".
func headingID(inner string) string {
	text := html.UnescapeString(tagRE.ReplaceAllString(inner, ""))
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(text) {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		dash = true
	}
	return b.String()
}

var (
	tagRE     = regexp.MustCompile(`<[^>]*>`)
	headingRE = regexp.MustCompile(`^(#{1,6})(?:\s+(.*))?$`)
	hrRE      = regexp.MustCompile(`^(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$`)
	bulletRE  = regexp.MustCompile(`^\s{0,3}[-*+]\s+(.*)$`)
	orderedRE = regexp.MustCompile(`^\s{0,3}\d{1,9}[.)]\s+(.*)$`)
	inlineRE  = regexp.MustCompile("`([^`]+)`|\\*\\*([^*]+)\\*\\*|__([^_]+)__|\\*([^*]+)\\*|\\b_([^_]+)_\\b|\\[([^\\]]+)\\]\\(([^)\\s]+)\\)|(https?://[^\\s<]+[^\\s<.,:;\"')\\]])")
)

// inlineTags are the inline HTML tags the sanitizer lets through as they
// are; any other tag is escaped.
var inlineTags = regexp.MustCompile(`^</?(?:b|i|em|strong|code|kbd|sub|sup|s|del|ins|mark|small|u|br)\s*/?>`)

// renderInline renders code spans, strong, emphasis, links, allowed inline
// tags and (in comments) bare URLs; the rest is escaped as Forgejo's
// sanitizer writes text (&#39; and &#34; for quotes).
func renderInline(s string, linkify bool) string {
	var out strings.Builder
	last := 0
	text := func(t string) {
		for t != "" {
			i := strings.IndexByte(t, '<')
			if i < 0 {
				out.WriteString(html.EscapeString(t))
				return
			}
			out.WriteString(html.EscapeString(t[:i]))
			if tag := inlineTags.FindString(t[i:]); tag != "" {
				out.WriteString(tag)
				t = t[i+len(tag):]
				continue
			}
			out.WriteString("&lt;")
			t = t[i+1:]
		}
	}
	for _, loc := range inlineRE.FindAllStringSubmatchIndex(s, -1) {
		g := func(i int) string {
			if loc[2*i] < 0 {
				return ""
			}
			return s[loc[2*i]:loc[2*i+1]]
		}
		if g(8) != "" && !linkify {
			continue // a bare URL stays text in a document
		}
		text(s[last:loc[0]])
		last = loc[1]
		switch {
		case g(1) != "":
			out.WriteString("<code>" + html.EscapeString(g(1)) + "</code>")
		case g(2) != "" || g(3) != "":
			out.WriteString("<strong>" + renderInline(g(2)+g(3), linkify) + "</strong>")
		case g(4) != "" || g(5) != "":
			out.WriteString("<em>" + renderInline(g(4)+g(5), linkify) + "</em>")
		case g(6) != "":
			out.WriteString(`<a href="` + html.EscapeString(g(7)) + `" rel="nofollow">` + renderInline(g(6), linkify) + "</a>")
		default:
			u := g(8)
			out.WriteString(`<a href="` + html.EscapeString(u) + `" rel="nofollow">` + html.EscapeString(u) + "</a>")
		}
	}
	text(s[last:])
	return out.String()
}

func hVersion(c *call) {
	c.json(http.StatusOK, map[string]string{"version": c.s.cfg.version})
}

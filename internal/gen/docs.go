package main

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file rewrites the spec's descriptions and summaries into Go doc
// comments: "Repository represents a repository." rather than "Repository
// Repository represents a repository", "Get gets a repository." from "Get a
// repository".

var (
	mdLink  = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	codeTag = regexp.MustCompile(`</?code>`)
	spaces  = regexp.MustCompile(`[ \t]+`)
)

// cleanText turns a spec description into plain sentences: HTML entities
// decoded, <code> as backticks, Markdown links reduced to their text, line
// breaks joined (a break after a line without closing punctuation ends a
// sentence), and a final period.
func cleanText(s string) string {
	s = html.UnescapeString(s)
	s = codeTag.ReplaceAllString(s, "`")
	s = mdLink.ReplaceAllString(s, "$1")
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(spaces.ReplaceAllString(line, " "))
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			prev := b.String()
			last, _ := utf8.DecodeLastRuneInString(prev)
			first, _ := utf8.DecodeRuneInString(line)
			if !strings.ContainsRune(".:!?;,", last) && unicode.IsUpper(first) {
				b.WriteByte('.')
			}
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	return sentence(b.String())
}

// sentence upper-cases the first letter and ends the text with a period.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = strings.TrimRight(s, ":;, ")
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if last, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".!?", last) {
		s += "."
	}
	return s
}

// lowerFirst lower-cases the first letter unless the first word is an
// acronym or identifier ("PR info", "ActivityStream").
func lowerFirst(s string) string {
	w, _, _ := strings.Cut(s, " ")
	if w == "" || strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

var (
	thirdPerson = map[string]bool{
		"represents": true, "contains": true, "holds": true, "is": true, "are": true, "wraps": true,
		"defines": true, "has": true, "returns": true, "exposes": true, "stores": true, "lists": true,
		"counts": true, "declares": true, "describes": true,
	}
	conjugate = map[string]string{
		"represent": "represents", "return": "returns", "contain": "contains", "store": "stores",
		"expose": "exposes", "list": "lists",
	}
)

// typeDoc writes the doc comment text of a type from the spec's description.
func typeDoc(name, raw string) string {
	text := cleanText(raw)
	if text == "" {
		return name + " is a model of the Forgejo API."
	}
	rest := text
	first, after, _ := strings.Cut(rest, " ")
	switch {
	case first == name:
		rest = after
	case (first == "A" || first == "An") && strings.HasPrefix(after, name+" "):
		rest = strings.TrimPrefix(after, name+" ")
	case isIdentLike(first) && commonPrefix(first, name) >= 4:
		rest = after
	}
	// "Milestone milestone is a collection...", "Hook a hook is a web hook".
	lname := strings.ToLower(name)
	if w, a, _ := strings.Cut(rest, " "); strings.ToLower(w) == lname {
		rest = a
	}
	for _, art := range []string{"a ", "an "} {
		if strings.HasPrefix(strings.ToLower(rest), art+lname+" is ") {
			rest = rest[len(art)+len(lname)+1:]
		}
	}
	w, a, _ := strings.Cut(rest, " ")
	lw := strings.ToLower(w)
	second, _, _ := strings.Cut(a, " ")
	switch {
	case lw == "are" && strings.HasPrefix(strings.ToLower(a), "options "):
		// "CreatePullReviewOptions are options to create a pull review":
		// one type is not "are".
		return name + " holds the " + a
	case thirdPerson[lw]:
		return name + " " + lowerFirst(rest)
	case conjugate[lw] != "":
		return name + " " + conjugate[lw] + " " + a
	case lw == "for" || lw == "to":
		return name + " is used " + lowerFirst(rest)
	case lw == "a" || lw == "an" || lw == "the":
		return name + " is " + lowerFirst(rest)
	case lw == "information" || lw == "info":
		return name + " holds " + lowerFirst(rest)
	case lw == "options" || lw == "form" || strings.ToLower(second) == "options":
		return name + " holds the " + lowerFirst(rest)
	case pluralNoun(lw), endsWithAny(strings.ToLower(strings.TrimSuffix(rest, ".")), " options", " option", " info", " information"):
		// "SearchResults results of a search", "CreateUserOption create
		// user options": "X is the results" and "X is the create user
		// options" do not read; a type holds them.
		return name + " holds the " + lowerFirst(rest)
	default:
		return name + " is the " + lowerFirst(rest)
	}
}

// pluralNoun reports whether a description's first word is a plural noun
// ("results", "details"), which "X is the …" cannot introduce. Verbs in the
// third person ("names", "reports") are in thirdPerson and never get here.
func pluralNoun(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !endsWithAny(w, "ss", "us", "is")
}

func endsWithAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

func isIdentLike(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsUpper(r) {
			n++
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return n >= 2
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// fieldDoc writes a field's doc comment text, or "" when the spec says
// nothing about it.
func fieldDoc(raw string, enum []string, required bool) string {
	text := cleanText(raw)
	if strings.EqualFold(strings.TrimSuffix(text, "."), "deprecated") {
		text = "Deprecated: the spec marks this field deprecated."
	}
	var extra []string
	if len(enum) > 0 {
		extra = append(extra, "One of: "+strings.Join(enum, ", ")+".")
	}
	if required {
		extra = append(extra, "Required: always sent.")
	}
	parts := append([]string{text}, extra...)
	return strings.TrimSpace(strings.Join(parts, " "))
}

// summaryCase lower-cases the common words some spec summaries capitalize
// mid-sentence ("Create or Update a secret", "Pin an Issue"); proper nouns
// (Git, Forgejo, the ActivityPub Actor and Person) keep their case.
var summaryCase = regexp.MustCompile(`\b(Update|Issue|Pin|Pins|Position|Token|Attachment)\b`)

// summaryGrammar fixes the spec's grammar slips that would be copied into
// doc comments.
var summaryGrammar = strings.NewReplacer(
	"a branch protections", "a branch protection",
	"a tag protections", "a tag protection",
	"or update ", "or updates ",
)

// methodSentence rewrites an operation summary ("Get a repository") as the
// first sentence of a method's doc comment ("Get gets a repository.").
func methodSentence(method, summary string) string {
	text := cleanText(summary)
	if first, rest, ok := strings.Cut(text, " "); ok {
		text = first + " " + summaryGrammar.Replace(summaryCase.ReplaceAllStringFunc(rest, strings.ToLower))
	}
	first, rest, _ := strings.Cut(text, " ")
	switch first {
	case "":
		return method + " calls the operation."
	case "The":
		return method + " returns the " + rest
	case "Whether":
		return method + " reports whether " + rest
	}
	verb := strings.ToLower(first)
	if !strings.HasSuffix(verb, "s") {
		verb = thirdPersonOf(verb)
	}
	if rest == "" {
		return method + " " + sentence(verb)
	}
	return method + " " + verb + " " + rest
}

func thirdPersonOf(v string) string {
	switch {
	case strings.HasSuffix(v, "ch"), strings.HasSuffix(v, "sh"), strings.HasSuffix(v, "x"),
		strings.HasSuffix(v, "z"), strings.HasSuffix(v, "o"):
		return v + "es"
	case strings.HasSuffix(v, "y") && len(v) > 1 && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
		return v[:len(v)-1] + "ies"
	}
	return v + "s"
}

// comment renders text as a // comment block wrapped at width columns
// (including the indent), paragraphs separated by blank lines ("\n\n").
// Lines that start with a tab are kept verbatim as Go doc code blocks.
func comment(indent, text string) string {
	const width = 80
	var b strings.Builder
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range paras {
		if i > 0 {
			b.WriteString(indent + "//\n")
		}
		if strings.HasPrefix(p, "\t") {
			for _, line := range strings.Split(p, "\n") {
				b.WriteString(indent + "//" + line + "\n")
			}
			continue
		}
		wrapped := wrapText(p, width-len(indent)-len("// "))
		if wrapped == "" {
			continue
		}
		for _, line := range strings.Split(wrapped, "\n") {
			b.WriteString(indent + "// " + line + "\n")
		}
	}
	return b.String()
}

// Citations in a row's Note are for the table's readers: the name of the
// record of a measurement on a real Forgejo, which users of the library do
// not have, and the source file a hand-written part lives in
// ("(activitypub.go)"). A method's doc comment states the behaviour
// without them; these patterns find the record's name.
var (
	noteCitedApart  = regexp.MustCompile(`;\s*forgejo-15-observations(?: #\d+)?`)
	noteCitedWhole  = regexp.MustCompile(`\s*\(forgejo-15-observations(?: #\d+)?\)`)
	noteCitedPrefix = regexp.MustCompile(`\(forgejo-15-observations(?: #\d+)?: `)
	noteSourceFile  = regexp.MustCompile(`\s*\([a-z0-9_]+\.go\)`)
)

// publicNote is a row's Note as a method's doc comment says it.
func publicNote(n string) string {
	n = noteCitedApart.ReplaceAllString(n, "")
	n = noteCitedWhole.ReplaceAllString(n, "")
	n = noteCitedPrefix.ReplaceAllString(n, "(")
	return noteSourceFile.ReplaceAllString(n, "")
}

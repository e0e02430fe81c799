package forgejotest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A repository's labels and the labels of an issue; organization labels
// are in h_orgs.go.

// rawList reads a JSON array whose elements are ids or names (label lists).
func rawList(raw []json.RawMessage) (ids []int64, names []string) {
	for _, r := range raw {
		var id int64
		if json.Unmarshal(r, &id) == nil {
			ids = append(ids, id)
			continue
		}
		var name string
		if json.Unmarshal(r, &name) == nil {
			names = append(names, name)
		}
	}
	return ids, names
}

// ---- labels

var colorRE = regexp.MustCompile(`^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$`)

// normalizeColor accepts "#rrggbb", "rrggbb", "#rgb" and "rgb", answering
// 422 "bad color code: …" otherwise (Forgejo 15's words; Gitea 1.27 says
// "invalid color"); Forgejo stores six lower-case digits.
func (c *call) normalizeColor(raw string) (string, bool) {
	m := colorRE.FindStringSubmatch(strings.TrimSpace(raw))
	if m == nil {
		c.fail(http.StatusUnprocessableEntity, "bad color code: "+raw)
		return "", false
	}
	hex := strings.ToLower(m[1])
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	return hex, true
}

// sortedLabels orders as the sort parameter says: alphabetically by
// default, or reversealphabetically, mostissues, leastissues.
func sortedLabels(r *repo, mode string) []*label {
	uses := map[*label]int{}
	for _, is := range r.issues {
		if is != nil {
			for _, l := range is.labels {
				uses[l]++
			}
		}
	}
	ls := slices.Clone(r.labels)
	slices.SortFunc(ls, func(a, b *label) int {
		byName := cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), cmp.Compare(a.id, b.id))
		switch mode {
		case "reversealphabetically":
			return -byName
		case "mostissues":
			return cmp.Or(cmp.Compare(uses[b], uses[a]), byName)
		case "leastissues":
			return cmp.Or(cmp.Compare(uses[a], uses[b]), byName)
		}
		return byName
	})
	return ls
}

func hListLabels(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.v.labels(paginate(c, sortedLabels(r, c.q.Get("sort")), pageTotalOnly)))
	}
}

type labelBody struct {
	Name        *string `json:"name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
	Exclusive   *bool   `json:"exclusive"`
	IsArchived  *bool   `json:"is_archived"`
}

func (c *call) applyLabel(l *label, body labelBody) bool {
	if body.Color != nil {
		col, ok := c.normalizeColor(*body.Color)
		if !ok {
			return false
		}
		l.color = col
	}
	if body.Name != nil {
		l.name = *body.Name
	}
	if body.Description != nil {
		l.description = *body.Description
	}
	if body.Exclusive != nil {
		l.exclusive = *body.Exclusive
	}
	if body.IsArchived != nil {
		l.archived = *body.IsArchived
	}
	return true
}

func hCreateLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var body labelBody
	if !c.decode(&body) {
		return
	}
	switch {
	case body.Name == nil || strings.TrimSpace(*body.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	case body.Color == nil || *body.Color == "":
		c.fail(http.StatusUnprocessableEntity, "[Color]: Required")
		return
	}
	l := &label{id: c.st.id("label"), repo: r}
	if !c.applyLabel(l, body) {
		return
	}
	r.labels = append(r.labels, l)
	c.json(http.StatusCreated, c.v.label(l))
}

func (c *call) pathLabel(r *repo) *label {
	id, ok := c.pathInt("id")
	l := r.labelByID(id)
	if !ok || l == nil {
		c.notFound()
		return nil
	}
	return l
}

func hGetLabel(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if l := c.pathLabel(r); l != nil {
		c.json(http.StatusOK, c.v.label(l))
	}
}

// editLabel applies a label edit (repository or organization label): the
// label changes only if the whole body is valid.
func (c *call) editLabel(l *label) {
	var body labelBody
	if !c.decode(&body) {
		return
	}
	cp := *l
	if !c.applyLabel(&cp, body) {
		return
	}
	*l = cp
	c.json(http.StatusOK, c.v.label(l))
}

func hEditLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	l := c.pathLabel(r)
	if l == nil {
		return
	}
	c.editLabel(l)
}

func hDeleteLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	// Forgejo deletes by id without looking the label up first: a label that
	// is not there (or an id that is no number) is 204 all the same.
	id, _ := c.pathInt("id")
	l := r.labelByID(id)
	if l == nil || l.repo != r {
		c.empty(http.StatusNoContent)
		return
	}
	r.labels = slices.DeleteFunc(r.labels, func(x *label) bool { return x == l })
	for _, is := range r.issues {
		if is != nil {
			is.labels = slices.DeleteFunc(is.labels, func(x *label) bool { return x == l })
		}
	}
	c.empty(http.StatusNoContent)
}

func hIssueLabels(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if is := c.pathIssue(r); is != nil {
		c.json(http.StatusOK, c.v.labels(is.labels))
	}
}

// hSetIssueLabels adds (or, replacing, sets) labels named by id or name;
// Forgejo answers 200 with the issue's labels.
func hSetIssueLabels(replace bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil || !c.canWriteRepo(r) {
			return
		}
		is := c.pathIssue(r)
		if is == nil {
			return
		}
		var body struct {
			Labels []json.RawMessage `json:"labels"`
		}
		if !c.decode(&body) {
			return
		}
		ids, names := rawList(body.Labels)
		var add []*label
		for _, id := range ids {
			if l := r.labelByID(id); l != nil {
				add = append(add, l)
			}
		}
		for _, n := range names {
			if l := r.labelByName(n); l != nil {
				add = append(add, l)
			}
		}
		if replace {
			is.labels = nil
		}
		for _, l := range add {
			is.addLabel(l)
		}
		is.updated = c.now
		c.json(http.StatusOK, c.v.labels(is.labels))
		c.s.emitIssue(c, is, "label", "label_updated", nil)
	}
}

func hClearIssueLabels(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	if is := c.pathIssue(r); is != nil {
		is.labels, is.updated = nil, c.now
		c.empty(http.StatusNoContent)
		c.s.emitIssue(c, is, "label", "label_cleared", nil)
	}
}

func hRemoveIssueLabel(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	ident := c.p["identifier"]
	var l *label
	if id, err := strconv.ParseInt(ident, 10, 64); err == nil {
		l = r.labelByID(id)
	} else {
		l = r.labelByName(ident)
	}
	if l == nil {
		c.fail(http.StatusNotFound, "label does not exist [label_id: "+ident+", repo_id: "+strconv.FormatInt(r.id, 10)+"]")
		return
	}
	is.labels = slices.DeleteFunc(is.labels, func(x *label) bool { return x == l })
	is.updated = c.now
	c.empty(http.StatusNoContent)
	c.s.emitIssue(c, is, "label", "label_updated", nil)
}

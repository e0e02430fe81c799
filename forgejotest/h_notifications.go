package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// notificationFilter reads the listing filters: all=true for every status,
// else status-types (default unread and pinned); subject-type; since and
// before.
func (c *call) notificationsOf(r *repo) ([]*notification, bool) {
	statuses := c.q["status-types"]
	if len(statuses) == 0 {
		statuses = []string{"unread", "pinned"}
	}
	if c.q.Get("all") == "true" {
		statuses = []string{"unread", "read", "pinned"}
	}
	subjects := c.q["subject-type"]
	since, ok := c.timeFilter("since")
	if !ok {
		return nil, false
	}
	before, ok := c.timeFilter("before")
	if !ok {
		return nil, false
	}
	var out []*notification
	for _, n := range c.st.notifications {
		if n.user != c.user || (r != nil && n.repo != r) || !slices.Contains(statuses, n.status) {
			continue
		}
		if len(subjects) > 0 {
			kind := "issue"
			if n.issue.pull != nil {
				kind = "pull"
			}
			if !slices.ContainsFunc(subjects, func(s string) bool { return strings.EqualFold(s, kind) }) {
				continue
			}
		}
		if (!since.IsZero() && n.updated.Before(since)) || (!before.IsZero() && !n.updated.Before(before)) {
			continue
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *notification) int { return cmp.Or(b.updated.Compare(a.updated), cmp.Compare(b.id, a.id)) })
	return out, true
}

func (c *call) threads(ns []*notification) []*wNotification {
	out := make([]*wNotification, 0, len(ns))
	for _, n := range ns {
		out = append(out, c.v.notification(n))
	}
	return out
}

func hListNotifications(inRepo bool) func(c *call) {
	return func(c *call) {
		var r *repo
		if inRepo {
			if r = c.pathRepo(); r == nil {
				return
			}
		}
		ns, ok := c.notificationsOf(r)
		if ok {
			c.json(http.StatusOK, c.threads(paginate(c, ns, pageLinked)))
		}
	}
}

// hReadNotifications marks threads (default: the unread ones updated
// before last_read_at, default now) as to-status (default read). Forgejo
// answers 205 with the threads it changed.
func hReadNotifications(inRepo bool) func(c *call) {
	return func(c *call) {
		var r *repo
		if inRepo {
			if r = c.pathRepo(); r == nil {
				return
			}
		}
		lastRead := c.now
		if v := c.q.Get("last_read_at"); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				c.fail(http.StatusBadRequest, err.Error())
				return
			}
			lastRead = t
		}
		statuses := c.q["status-types"]
		if len(statuses) == 0 {
			statuses = []string{"unread"}
		}
		if c.q.Get("all") == "true" {
			statuses = []string{"unread", "read", "pinned"}
		}
		to, ok := c.toStatus()
		if !ok {
			return
		}
		var changed []*notification
		for _, n := range c.st.notifications {
			if n.user != c.user || (r != nil && n.repo != r) || !slices.Contains(statuses, n.status) || n.updated.After(lastRead) {
				continue
			}
			if n.status != to {
				n.status = to
				changed = append(changed, n)
			}
		}
		c.json(http.StatusResetContent, c.threads(changed))
	}
}

func (c *call) toStatus() (string, bool) {
	to := c.q.Get("to-status")
	if to == "" {
		to = "read"
	}
	if to != "read" && to != "unread" && to != "pinned" {
		c.fail(http.StatusBadRequest, "invalid notification status: "+to)
		return "", false
	}
	return to, true
}

func hNewNotifications(c *call) {
	n := 0
	for _, x := range c.st.notifications {
		if x.user == c.user && x.status == "unread" {
			n++
		}
	}
	c.json(http.StatusOK, map[string]int{"new": n})
}

// pathThread finds {id}: missing is 404, someone else's 403.
func (c *call) pathThread() *notification {
	id, _ := c.pathInt("id")
	for _, n := range c.st.notifications {
		if n.id != id {
			continue
		}
		if n.user != c.user && !c.user.isAdmin {
			c.fail(http.StatusForbidden, "only user itself and admin are allowed to read/change this thread "+strconv.FormatInt(id, 10))
			return nil
		}
		return n
	}
	c.fail(http.StatusNotFound, "notification does not exist [id: "+c.p["id"]+"]")
	return nil
}

func hGetThread(c *call) {
	if n := c.pathThread(); n != nil {
		c.json(http.StatusOK, c.v.notification(n))
	}
}

// hReadThread marks one thread (default read); Forgejo answers 205 with the
// thread.
func hReadThread(c *call) {
	n := c.pathThread()
	if n == nil {
		return
	}
	to, ok := c.toStatus()
	if !ok {
		return
	}
	n.status = to
	c.json(http.StatusResetContent, c.v.notification(n))
}

package forgejotest

import (
	"encoding/json"
	"slices"
	"strings"
)

// A push to a branch starts a run of every workflow of the pushed commit
// whose on: names push (and whose branches / branches-ignore filters let
// the branch through), as Forgejo's notifier does: event and trigger_event
// "push", the head commit's first line as its title, the push's payload as
// its event payload, the pusher as its trigger user. Its jobs then wait
// for a runner like a dispatched run's.

// startPushRuns is called for every push to branch b of r (after it moved
// to its new commit), with the push's payload.
func (s *Server) startPushRuns(c *call, r *repo, b *branch, cm *commit, payload any) {
	if b == nil || b.sha == "" {
		return
	}
	sha, files, ok := r.resolveRef("refs/heads/" + b.name)
	if !ok {
		return
	}
	var data []byte
	for _, dir := range workflowDirs {
		if !isDir(files, dir) {
			continue
		}
		var names []string
		for p := range files {
			if name, ok := strings.CutPrefix(p, dir+"/"); ok && !strings.Contains(name, "/") &&
				(strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")) {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			wf, err := parseWorkflow(files[dir+"/"+name])
			if err != nil || !wf.push.matches(b.name) {
				continue
			}
			if data == nil {
				data, _ = json.Marshal(payload)
			}
			title := dir + "/" + name
			if cm != nil {
				title, _, _ = strings.Cut(cm.message, "\n")
			}
			c.newRun(r, dir, name, wf, title, "refs/heads/"+b.name, sha, "push", string(data))
		}
		break // only the first directory that exists, as Forgejo reads them
	}
	s.advanceRunsLocked(c.now)
}

package main

import (
	"fmt"
	"strings"
)

// giteaFields are properties Gitea sends that no Forgejo spec has, and
// that a program needs on Gitea to read an answer right (docs/HAZARDS.md
// §23). Keyed "Definition.wire_name"; each is added to the pinned spec
// after the releases were compared (so no release note claims it) and
// before the models are built, and is generated like any property. An
// entry that names no definition, or a property the spec already has, is
// an error.
var giteaFields = map[string]*Schema{
	"ActionRun.conclusion": {Type: "string", Description: "Conclusion is how a finished run ended, as Gitea reports it: Gitea's " +
		"Status is \"completed\" for every finished run, and this says success, failure, cancelled or skipped. " +
		"Forgejo leaves it empty and reports the outcome as Status; [ActionRun.Outcome] reads both."},
	"ActionRun.path": {Type: "string", Description: "Path names the run's workflow file and ref as Gitea reports them " +
		"(\"ci.yml@refs/heads/main\"); Forgejo leaves it empty and fills WorkflowID and Prettyref."},
	"ActionRunJob.conclusion": {Type: "string", Description: "Conclusion is how a finished job ended, as Gitea reports it: " +
		"Gitea's Status is \"completed\" for every finished job, and this says success, failure, cancelled or skipped. " +
		"Forgejo leaves it empty and reports the outcome as Status; [ActionRunJob.Outcome] reads both."},
}

// addGiteaFields adds giteaFields to s.
func addGiteaFields(s *Spec) error {
	for _, key := range sortedKeys(giteaFields) {
		def, prop, _ := strings.Cut(key, ".")
		d := s.Definitions[def]
		switch {
		case d == nil:
			return fmt.Errorf("giteaFields names %s, whose definition the spec does not have", key)
		case d.Properties[prop] != nil:
			return fmt.Errorf("giteaFields names %s, which the spec already has", key)
		}
		d.Properties[prop] = giteaFields[key]
	}
	return nil
}

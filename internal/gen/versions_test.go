package main

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/internal/api"
)

func loadForTest(t *testing.T) (*Spec, []release) {
	t.Helper()
	spec, err := parseSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := loadReleases()
	if err != nil {
		t.Fatal(err)
	}
	return spec, rels
}

// TestEarlierForms pins the operations that older releases serve under
// another operationId or path: exactly these five.
func TestEarlierForms(t *testing.T) {
	spec, rels := loadForTest(t)
	vi, err := buildVersions(spec, rels)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"DispatchWorkflow":                "DispatchWorkflow POST /repos/{owner}/{repo}/actions/workflows/{workflowname}/dispatches 11.0-11.0",
		"adminDeleteQuotaRule":            "adminDEleteQuotaRule DELETE /admin/quota/rules/{quotarule} 11.0-13.0",
		"adminGetRegistrationToken":       "adminGetRunnerRegistrationToken GET /admin/runners/registration-token 11.0-14.0",
		"adminGetRunnerRegistrationToken": "adminGetRunnerRegistrationToken GET /admin/runners/registration-token 11.0-14.0",
		"issueRemoveLabel":                "issueRemoveLabel DELETE /repos/{owner}/{repo}/issues/{index}/labels/{id} 11.0-11.0",
	}
	got := map[string]string{}
	for id, ov := range vi.ops {
		for _, e := range ov.earlier {
			got[id] = e.id + " " + e.verb + " " + e.path + " " + e.since + "-" + e.until
		}
		if len(ov.earlier) > 1 {
			t.Errorf("%s: %d earlier forms", id, len(ov.earlier))
		}
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("earlier forms %v", got)
	}
}

// TestBuildVersionsRefusesAnUnaccountedOperation: a release operation that
// no pinned operation explains stops the generator.
func TestBuildVersionsRefusesAnUnaccountedOperation(t *testing.T) {
	spec, rels := loadForTest(t)
	rels[0].spec.Ops["madeUp"] = &SpecOp{ID: "madeUp", Verb: "GET", Path: "/made/up"}
	_, err := buildVersions(spec, rels)
	if err == nil || !strings.Contains(err.Error(), "madeUp") {
		t.Fatalf("err = %v", err)
	}
}

// TestVerbOverrideMustStillBeNeeded: an override the spec agrees with is
// refused, so a re-pin that fixes the spec cannot leave a stale one.
func TestVerbOverrideMustStillBeNeeded(t *testing.T) {
	spec, _ := loadForTest(t)
	spec.Ops["activitypubInstanceActorOutbox"].Verb = "GET" // as a fixed spec would say
	err := applyVerbOverrides(spec)
	if err == nil || !strings.Contains(err.Error(), "drop the row's Verb override") {
		t.Fatalf("err = %v", err)
	}
}

package forgejo

import (
	"encoding/json"
	"testing"
)

func TestLabelRefWire(t *testing.T) {
	body := IssueLabelsRequest{Labels: []LabelRef{LabelID(7), LabelName("bug"), LabelName("42")}}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `{"labels":[7,"bug","42"]}`; got != want {
		t.Fatalf("marshal = %s, want %s", got, want)
	}
	var back IssueLabelsRequest
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if id, ok := back.Labels[0].ID(); !ok || id != 7 {
		t.Errorf("labels[0] = %v", back.Labels[0])
	}
	if n, ok := back.Labels[2].Name(); !ok || n != "42" {
		t.Errorf("labels[2] = %v: a numeric name must stay a name", back.Labels[2])
	}
}

func TestOpenEnumKeepsUnknownValues(t *testing.T) {
	var pr PullRequest
	if err := json.Unmarshal([]byte(`{"state":"someday"}`), &pr); err != nil {
		t.Fatal(err)
	}
	if pr.State != "someday" || pr.State == StateOpen {
		t.Errorf("state = %q", pr.State)
	}
	data, _ := json.Marshal(MergePullRequestRequest{Style: MergeStyleSquash, Title: "t", Message: "m"})
	if got, want := string(data), `{"Do":"squash","MergeMessageField":"m","MergeTitleField":"t"}`; got != want {
		t.Errorf("merge body = %s, want %s", got, want)
	}
}

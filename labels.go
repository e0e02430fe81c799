package forgejo

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// LabelRef names a label by ID or by name, as [IssuesService.AddLabelsToIssue] and
// [IssuesService.ReplaceLabelsForIssue] accept either. Build it with [LabelID] or
// [LabelName]; it is sent as a JSON number or a JSON string.
type LabelRef struct {
	id   int64
	name string
}

// LabelID refers to a label by its ID.
func LabelID(id int64) LabelRef { return LabelRef{id: id} }

// LabelName refers to a label by its name. The instance looks the name up
// among the repository's labels, then the organization's.
func LabelName(name string) LabelRef { return LabelRef{name: name} }

// LabelIDs refers to labels by their IDs.
func LabelIDs(ids ...int64) []LabelRef {
	out := make([]LabelRef, len(ids))
	for i, id := range ids {
		out[i] = LabelID(id)
	}
	return out
}

// LabelNames refers to labels by their names.
func LabelNames(names ...string) []LabelRef {
	out := make([]LabelRef, len(names))
	for i, n := range names {
		out[i] = LabelName(n)
	}
	return out
}

// ID returns the label ID and true when l refers to a label by ID.
func (l LabelRef) ID() (int64, bool) { return l.id, l.name == "" }

// Name returns the label name and true when l refers to a label by name.
func (l LabelRef) Name() (string, bool) { return l.name, l.name != "" }

// String returns the ID in decimal or the name.
func (l LabelRef) String() string {
	if l.name != "" {
		return l.name
	}
	return strconv.FormatInt(l.id, 10)
}

// MarshalJSON sends an ID as a number and a name as a string.
func (l LabelRef) MarshalJSON() ([]byte, error) {
	if l.name != "" {
		return json.Marshal(l.name)
	}
	return strconv.AppendInt(nil, l.id, 10), nil
}

// UnmarshalJSON reads a number as an ID and a string as a name.
func (l *LabelRef) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var name string
		if err := json.Unmarshal(data, &name); err != nil {
			return err
		}
		*l = LabelName(name)
		return nil
	}
	var id int64
	if err := json.Unmarshal(data, &id); err != nil {
		return err
	}
	*l = LabelID(id)
	return nil
}

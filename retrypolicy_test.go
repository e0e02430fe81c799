package forgejo

import "testing"

// TestRetryPoliciesAreFresh: DefaultRetryPolicy() and RetryOff() return a new
// value each time, so that a caller (or an init function of a dependency)
// adjusting one changes no other client's policy.
func TestRetryPoliciesAreFresh(t *testing.T) {
	p := DefaultRetryPolicy()
	p.MaxAttempts, p.RespectRetryAfter = 99, false
	if d := DefaultRetryPolicy(); d.MaxAttempts != 3 || !d.RespectRetryAfter {
		t.Errorf("DefaultRetryPolicy() after changing a copy: %v", d)
	}
	o := RetryOff()
	o.MaxAttempts = 5
	if r := RetryOff(); r.MaxAttempts != 1 {
		t.Errorf("RetryOff() after changing a copy: %v", r)
	}
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if c.retry != DefaultRetryPolicy() {
		t.Errorf("a client without WithRetryPolicy has %v", c.retry)
	}
}

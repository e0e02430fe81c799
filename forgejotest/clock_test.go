package forgejotest

import (
	"context"
	"testing"
	"time"
)

// TestFakeClock: timers fire when the time is moved past them and not
// before; a released timer never fires; Sleep ends with its context.
func TestFakeClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFakeClock(start)
	a, _ := c.Timer(time.Second)
	b, stopB := c.Timer(time.Second)
	stopB()
	z, _ := c.Timer(0)
	select {
	case <-z:
	default:
		t.Fatal("a zero timer did not fire at once")
	}
	c.Advance(999 * time.Millisecond)
	select {
	case <-a:
		t.Fatal("fired early")
	default:
	}
	c.Advance(time.Millisecond)
	if got := <-a; !got.Equal(start.Add(time.Second)) {
		t.Errorf("fired at %v", got)
	}
	select {
	case <-b:
		t.Error("a released timer fired")
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Sleep(ctx, time.Hour) }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Sleep: %v", err)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Error("Set")
	}
}

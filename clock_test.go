package forgejo

import (
	"context"
	"testing"
	"time"
)

// TestSystemClock: the real clock reads the time, its timers fire and can
// be released, and Sleep ends with its context.
func TestSystemClock(t *testing.T) {
	c := SystemClock()
	before := time.Now()
	if now := c.Now(); now.Before(before) {
		t.Errorf("Now %v before %v", now, before)
	}
	fired, _ := c.Timer(0)
	<-fired
	_, stop := c.Timer(time.Hour)
	stop()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep: %v", err)
	}
	if err := c.Sleep(context.Background(), 0); err != nil {
		t.Errorf("Sleep(0): %v", err)
	}
}

package integration

import (
	"maps"
	"runtime"
	"slices"
	"testing"
)

// Issue 19, class B: a test that skips itself after need counted it as ran
// must be counted as skipped, not ran, so that FORGEGO_IT_REQUIRE=1 and
// .ci/run (which fail on skipped > 0) see it. These run without a server:
// they drive the accounting with fakeTB, which behaves as testing.T does
// for what the accounting uses (Name, Cleanup, Skip, Skipped).

// fakeTB is one test: run calls body as the testing package would (a Skip
// ends the body through runtime.Goexit), then its cleanups, last first.
type fakeTB struct {
	testing.TB // nil: any other method panics
	name       string
	skipped    bool
	cleanups   []func()
}

func (f *fakeTB) Name() string         { return f.name }
func (f *fakeTB) Helper()              {}
func (f *fakeTB) Cleanup(fn func())    { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Skipped() bool        { return f.skipped }
func (f *fakeTB) Skip(...any)          { f.SkipNow() }
func (f *fakeTB) Skipf(string, ...any) { f.SkipNow() }
func (f *fakeTB) SkipNow() {
	f.skipped = true
	runtime.Goexit()
}

func (f *fakeTB) run(body func(t *fakeTB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(f)
	}()
	<-done
	for _, fn := range slices.Backward(f.cleanups) {
		fn()
	}
}

func TestAccountingCountsSkipsWherever(t *testing.T) {
	for _, tc := range []struct {
		name         string
		tests        map[string]func(a *accounting, t *fakeTB) // by test name
		ran, skipped int
	}{
		{"ran", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) { a.note(t, true) },
		}, 1, 0},
		{"no server", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) { a.note(t, false); t.Skip("no server") },
		}, 0, 1},
		{"skip after need", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) { a.note(t, true); t.Skip("no gpg command") },
		}, 0, 1},
		{"skipf after need called twice", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) {
				a.note(t, true)
				a.note(t, true)
				t.Skipf("the server is a %s", "Forgejo")
			},
		}, 0, 1},
		{"subtest skips after need", map[string]func(*accounting, *fakeTB){
			"TestA":     func(a *accounting, t *fakeTB) { a.note(t, true) },
			"TestA/sub": func(a *accounting, t *fakeTB) { a.note(t, true); t.SkipNow() },
		}, 0, 1},
		{"one of two skips late", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) { a.note(t, true) },
			"TestB": func(a *accounting, t *fakeTB) { a.note(t, true); t.Skip("late") },
		}, 1, 1},
		{"skip before need is not the accounting's", map[string]func(*accounting, *fakeTB){
			"TestA": func(a *accounting, t *fakeTB) { t.Skip("never asked for the server") },
		}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAccounting()
			for _, name := range slices.Sorted(maps.Keys(tc.tests)) {
				ft := &fakeTB{name: name}
				ft.run(func(ft *fakeTB) { tc.tests[name](a, ft) })
			}
			if ran, skipped := a.counts(); ran != tc.ran || skipped != tc.skipped || len(a.skippedNames()) != skipped {
				t.Errorf("counts: ran=%d skipped=%d (%v), want ran=%d skipped=%d", ran, skipped, a.skippedNames(), tc.ran, tc.skipped)
			}
		})
	}
}

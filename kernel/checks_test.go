package kernel

import "testing"

// TestCheckHostBounds: the setting is off by default, CheckHostBounds
// returns the former one, and a launch reads it when it binds; a Launch
// that is not live asks for checks.
func TestCheckHostBounds(t *testing.T) {
	if hostChecks.Load() {
		t.Fatal("CheckHostBounds is on by default")
	}
	defer CheckHostBounds(false)
	if was := CheckHostBounds(true); was {
		t.Error("CheckHostBounds(true) returned true, the former setting was off")
	}
	if was := CheckHostBounds(true); !was {
		t.Error("CheckHostBounds(true) returned false, the former setting was on")
	}
	for _, on := range []bool{false, true} {
		CheckHostBounds(on)
		var during *Launch
		_, _ = bind(func(l *Launch, _ []any) (int, error) {
			if l.Checks() != on {
				t.Errorf("CheckHostBounds(%v): the live launch's Checks() = %v", on, l.Checks())
			}
			during = l
			return 0, nil
		}, nil)
		if !during.Checks() {
			t.Errorf("CheckHostBounds(%v): a launch no longer live does not ask for checks", on)
		}
	}
	var nilLaunch *Launch
	if !nilLaunch.Checks() || !(&Launch{}).Checks() {
		t.Error("a nil or zero Launch does not ask for checks")
	}
}

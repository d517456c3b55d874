package kokkos

import "fmt"

// panicMessage runs f and returns the message of its panic, "" if none.
func panicMessage(f func()) (msg string) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			msg = r.Error()
		default:
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

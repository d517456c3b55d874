package backendtest

import "fmt"

// fakeToken is the ids of a token parameter during one launch on a
// FakeExecutor, in the executor's own memory as a device backend keeps
// them: the launch runs one index at a time, so an Acquire while every id
// is held would wait forever, and panics instead.
type fakeToken struct {
	held []bool
}

func newFakeToken(size int) *fakeToken { return &fakeToken{held: make([]bool, size)} }

func (t *fakeToken) Size() int { return len(t.held) }

func (t *fakeToken) Acquire() int {
	for id, h := range t.held {
		if !h {
			t.held[id] = true
			return id
		}
	}
	panic(fmt.Sprintf("Acquire(): all %d ids are held by the index that acquires: it would wait forever", len(t.held)))
}

func (t *fakeToken) Release(id int) {
	if id < 0 || id >= len(t.held) || !t.held[id] {
		panic(fmt.Sprintf("Release(%d): id %d is not held (released twice, or never acquired)", id, id))
	}
	t.held[id] = false
}

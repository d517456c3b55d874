package cuda

// SetForceStagedPeer makes every copy between two devices' memory take the
// staged path through the host (on) or the peer path where possible (off),
// and returns the function that restores the previous setting.
func SetForceStagedPeer(on bool) (restore func()) {
	old := forceStagedPeer.Swap(on)
	return func() { forceStagedPeer.Store(old) }
}

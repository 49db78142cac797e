// Ink stops drawing frames (it writes only the last one at exit) when CI or
// CONTINUOUS_INTEGRATION is set. NanoHermes decides for itself whether it is interactive (a TTY
// on both ends), so a user whose shell exports CI=true still gets a live UI.
export default false;

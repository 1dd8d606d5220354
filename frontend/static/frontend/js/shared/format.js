// Times as the pages show them. No DOM, so the node tests can import what uses it (share.js).

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** An answer's `elapsed_ms` (or `best_time_ms`) as a time, or `missing` where it is null:
 * a game still in play, or a record with no win yet. */
export function formatElapsed(ms, missing = "") {
  return ms == null ? missing : formatTime(ms / 1000);
}

// The daily commitment's text (games/commitment.py, docs/fair-play.md) and its SHA-256.

export const FORMAT = "yukon-daily-commitment-v1";

export function commitmentText({ date, tier, variant, algorithm_version, deal, salt }) {
  return [FORMAT, date, tier, variant, algorithm_version, deal, salt].map((line) => `${line}\n`).join("");
}

// null where the browser has no Web Crypto (a page served over plain HTTP from afar).
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// "3b7e91c2…" for the page; the whole value goes in a title and the copy button.
export function shortCommitment(hex) {
  return `${String(hex).slice(0, 12)}…`;
}

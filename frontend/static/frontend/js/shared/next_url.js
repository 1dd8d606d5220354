// Where a page goes after a log-in or sign-up: its `?next=`, only if it is on this site.

/**
 * `raw` (the `next` parameter) as a path on `origin`, or "/" when it leads elsewhere:
 * another host (`https://evil.example/`), a scheme-relative `//evil.example`, the
 * browser's backslash form of it (`/\evil.example`), or `javascript:`.
 */
export function safeNext(raw, origin) {
  if (!raw) return "/";
  let url;
  try {
    url = new URL(raw, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

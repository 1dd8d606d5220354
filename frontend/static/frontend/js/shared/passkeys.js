// Whether this page's address can use passkeys, and a refusal in words when it cannot.
// WebAuthn names the site by its host (the relying party, allauth's
// `get_public_key_credential_rp_entity`: the host the page came from), and browsers
// accept only a domain name over HTTPS, or `localhost` over plain HTTP. At an IP address
// (`http://127.0.0.1:8000/`) the browser refuses with "This is an invalid domain" in the
// console and nothing on the page; these say so on the page instead.

import { gettext, interpolate } from "./i18n.js";

const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\])$/;
const IP_ADDRESS = /^((\d{1,3}\.){3}\d{1,3}|\[[0-9a-f:.]+\])$/i;

/**
 * Why passkeys cannot work here, or null when they can.
 * `where`: the page's location ({protocol, hostname, host, port, pathname, search});
 * `browser`: {isSecureContext, PublicKeyCredential} (the window).
 * Returns {text, href?, linkText?}: a sentence, and the address to open instead if there is one.
 */
export function passkeyProblem(where, browser) {
  const { protocol, hostname, port, pathname = "/", search = "" } = where;
  if (LOOPBACK.test(hostname)) {
    const origin = `${protocol}//localhost${port ? `:${port}` : ""}`;
    return {
      text: gettext("Passkeys need a secure address with a name, not a number:"),
      href: `${origin}${pathname}${search}`,
      linkText: interpolate(gettext("open %(address)s instead"), { address: `${origin}/` }),
    };
  }
  if (IP_ADDRESS.test(hostname)) {
    return {
      text: interpolate(
        gettext("Passkeys need the site's name in the address, not an IP address (%(address)s): open the site by its name, over https."),
        { address: hostname },
      ),
    };
  }
  const localName = hostname === "localhost" || hostname.endsWith(".localhost");
  if (!browser.isSecureContext || (protocol !== "https:" && !localName)) {
    return { text: gettext("Passkeys need a secure address: open this page over https://.") };
  }
  if (!browser.PublicKeyCredential) {
    return { text: gettext("This browser cannot use passkeys. Log in with your password, or try another browser.") };
  }
  return null;
}

/** The refusal as a paragraph of the page (id `id`, for the buttons' aria-describedby). */
export function passkeyNote(problem, id) {
  const note = document.createElement("p");
  note.className = "notice passkey-note";
  note.id = id;
  note.append(problem.text);
  if (problem.href) {
    const link = document.createElement("a");
    link.href = problem.href;
    link.textContent = problem.linkText;
    note.append(" ", link, ".");
  }
  return note;
}

/** What a failed WebAuthn call means, in words (its DOMException's name). */
export function passkeyFailure(error) {
  switch (error?.name) {
    case "NotAllowedError":
      return gettext("No passkey was used: the browser's window was closed, or it timed out. Try again.");
    case "InvalidStateError":
      return gettext("This device holds a passkey for your account already.");
    case "SecurityError":
      return gettext("The browser refused passkeys at this address. Open the site by its name, over https (or http://localhost).");
    case "NotSupportedError":
      return gettext("This device cannot make a passkey of that kind.");
    case "AbortError":
      return gettext("The passkey request was cancelled.");
    default:
      return error?.message
        ? interpolate(gettext("The passkey did not work: %(reason)s"), { reason: error.message })
        : gettext("The passkey did not work.");
  }
}

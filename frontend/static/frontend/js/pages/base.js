// Every page (base.html): the header's log-out button, and the times the server wrote
// in UTC (`<time data-local>`) put on the reader's clock.

import { api } from "../shared/api.js";
import { toast } from "../shared/dom.js";
import { fillLocalTimes } from "../shared/local_time.js";
import { countVisit } from "../shared/metrics.js";

countVisit(); // once a day per browser, a count and no id (docs/metrics.md)

if (document.querySelector("time[data-local]")) {
  fillLocalTimes(document);
  setInterval(() => fillLocalTimes(document), 30_000); // "in 3 h 12 min" keeps counting
}

const logout = document.querySelector("[data-logout]");
if (logout) {
  logout.addEventListener("click", async () => {
    try {
      await api.post("/api/auth/logout/");
    } catch (err) {
      toast(err.message, { warn: true });
      return;
    }
    window.location.href = "/";
  });
}

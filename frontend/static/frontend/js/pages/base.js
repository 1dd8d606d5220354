// Every page (base.html): the header's log-out button.

import { api } from "../shared/api.js";
import { toast } from "../shared/dom.js";

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

// Your account page: change the display name (POST /api/auth/display-name/).

import { api, errorText } from "./api.js";
import { toast } from "./site.js";

const nameForm = document.querySelector("[data-display-name]");
nameForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = nameForm.querySelector("[data-error]");
  error.textContent = "";
  try {
    const me = await api.post("/api/auth/display-name/", Object.fromEntries(new FormData(nameForm)));
    toast(`You are now ${me.player.display_name} on the boards.`);
    document.querySelectorAll(".who").forEach((el) => { el.textContent = me.player.display_name; });
  } catch (err) {
    error.textContent = errorText(err.body, err.message);
  }
});

// Sign-up and log-in forms, sent to the auth API; on success, back where the player came from.

import { api } from "./api.js";

const form = document.querySelector("[data-account-form]");
const errorEl = form.querySelector("[data-form-error]");

function nextUrl() {
  const next = new URLSearchParams(window.location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorEl.textContent = "";
  const data = Object.fromEntries(new FormData(form));
  const action = form.dataset.action;
  if (action === "signup" && !data.display_name) data.display_name = data.username;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await api.post(`/api/auth/${action}/`, data);
    window.location.href = nextUrl();
  } catch (err) {
    const body = err.body || {};
    const first = Object.entries(body.errors || body).find(([k]) => k !== "detail");
    errorEl.textContent = first ? `${first[0].replace("_", " ")}: ${[].concat(first[1])[0]}` : err.message;
    button.disabled = false;
  }
});

// The practice form: go to /practice/<n>/?variant=..., or pick a random deal.

import { siteConstants } from "./site.js";

const MAX_DEAL = BigInt(siteConstants().max_deal);
const form = document.querySelector("[data-practice-form]");

function go(deal) {
  const variant = form.elements.variant.value;
  window.location.href = `/practice/${deal}/?variant=${encodeURIComponent(variant)}`;
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const deal = form.elements.deal.value.trim();
  if (/^[0-9]{1,20}$/.test(deal) && BigInt(deal) <= MAX_DEAL) go(deal);
  else form.elements.deal.setCustomValidity(`A whole number from 0 to ${MAX_DEAL}`);
  form.reportValidity();
});
form.elements.deal.addEventListener("input", () => form.elements.deal.setCustomValidity(""));
form.querySelector("[data-random]").addEventListener("click", () => {
  go(Math.floor(Math.random() * 1_000_000_000));
});

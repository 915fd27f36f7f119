// Building the page: elements, formulas with subscripts, sheets and toasts.

import { $ } from "./state.js";

// --- HTML helpers --------------------------------------------------------------------------

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** A formula with true subscripts: Fe2O3 → Fe₂O₃ (coefficients after · stay full size). */
export function formulaHtml(formula) {
  return escapeHtml(formula).replace(/([A-Za-z)\]])(\d+)/g, "$1<sub>$2</sub>");
}
export const formulaNode = (formula) => h("span", { class: "formula", html: formulaHtml(formula) });

/** Element counts in Hill order (C, H, then alphabetical; alphabetical without carbon). */
export function hill(counts) {
  const keys = Object.keys(counts || {}).filter((k) => counts[k]);
  if (!keys.length) return "—";
  const rest = keys.filter((k) => !(keys.includes("C") && (k === "C" || k === "H"))).sort();
  const order = keys.includes("C") ? ["C", ...(keys.includes("H") ? ["H"] : []), ...rest] : keys.sort();
  return order.map((k) => k + (counts[k] === 1 ? "" : counts[k])).join("");
}

// --- Sheets and toasts -----------------------------------------------------------------------

export function openSheet(title, body) {
  setSheet(title, body);
  const dialog = $("dialog");
  if (!dialog.open) dialog.showModal();
}
export function setSheet(title, body) {
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(body);
}
export function closeSheet() {
  const dialog = $("dialog");
  if (dialog.open) dialog.close();
}
export let toastTimer = 0;
export function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), 3500);
}
